"""The run viewer: run directories written as a static, file://-safe web page (``wapii view``).

:mod:`wapii_core.view.runs` reads run directories into what the page shows, :mod:`wapii_core.view.bundle`
writes the page (assets plus data files in chunks), :mod:`wapii_core.view.serve` serves one on 127.0.0.1.
"""

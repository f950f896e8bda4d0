"""What every Python HTTP-library adapter shares.

The per-library rules' shape (:mod:`.library`), cutting the first request out of a program
(:mod:`.extract`), the typed query values read from its source (:mod:`.source_query`), the harness's run
loop inside the sandbox (:mod:`.harness`), the captured request as a record (:mod:`.recording`), its
normalisation (:mod:`.normalise`), the pool result as a
:class:`~wapii_core.base.model.Capture` (:mod:`.capture`), the adapter base with its sandboxed pool
(:mod:`.adapter`) and Python literals for rendered programs (:mod:`.pyliteral`, :mod:`.render`),
and the grammar of a legal call in the Python dialect (:mod:`.grammar`).

Adapters (``requests_py``, ``httpx_py``, ``aiohttp_py``) reach all of it through :mod:`wapii_core.kits.python`.
"""

"""MkDocs hook: each built-in plugin's README (``plugins/<name>/README.md``) becomes the site page
``builtin/<name>.md``, so the site and the repository show the same text. A README's links into
the site (``../../docs/page.md``) are pointed at the page; anything else is left as written, and
``--strict`` fails on a link that leads nowhere."""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File

REPO = Path(__file__).resolve().parent.parent


def on_files(files, config):
    for readme in sorted(REPO.glob("plugins/*/README.md")):
        text = readme.read_text(encoding="utf-8").replace("](../../docs/", "](../")
        files.append(File.generated(config, f"builtin/{readme.parent.name}.md", content=text))
    return files


_ROLE = re.compile(r":(?:mod|class|func|meth|attr|data|exc|obj):(<code>)~?")


def on_page_content(html, page, config, files):
    """Docstrings are written with Sphinx roles (``:class:`X```, ``::`` before a literal block);
    the API reference shows them as plain code."""
    return _ROLE.sub(r"\1", html).replace("::</p>", ":</p>")

"""MkDocs hook: each built-in plugin's README (``plugins/<name>/README.md``) becomes the site page
``builtin/<name>.md``, so the site and the repository show the same text. A README's links into
the site (``../../docs/page.md``) are pointed at the page, and a page's links to a README
(``../plugins/<name>/README.md``, which work where the Markdown files are read) at its site page;
anything else is left as written, and ``--strict`` fails on a link that leads nowhere."""

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


def _api_names(facade: str = "wapii_core.api") -> str:
    """Every name of ``facade`` (the plugin API, a kit, the testing module), grouped as the module
    groups them, with the module it comes from and the first sentence of its docstring: tables in Markdown."""
    import importlib
    import inspect

    source = inspect.getsource(importlib.import_module(facade))
    body = source.split("_WHERE: dict[str, str] = {", 1)[1].split("\n}", 1)[0]
    out: list[str] = []
    for line in body.splitlines():
        line = line.strip()
        if line.startswith("# "):
            out += ["", f"**{line[2:].rstrip('.')}**", "", "| name | from | what |", "|---|---|---|"]
            continue
        for name, module in re.findall(r'"(\w+)": "([\w.]+)"', line):
            value = getattr(importlib.import_module(module), name)
            doc = inspect.getdoc(value) if inspect.isclass(value) or inspect.isroutine(value) else None
            what = " ".join((doc or "").split("\n\n", 1)[0].split()).replace("|", "\\|")
            out.append(f"| `{name}` | `{module}` | {what} |")
    return "\n".join(out).strip() + "\n"


_README_LINK = re.compile(r"\]\((?:\.\./)+plugins/(\w+)/README\.md")


def on_page_markdown(markdown, page, config, files):
    if page.file.src_uri == "reference/plugin-api.md":
        markdown = markdown.replace("<!-- api-names -->", _api_names())
    for facade in re.findall(r"<!-- names: ([\w.]+) -->", markdown):
        markdown = markdown.replace(f"<!-- names: {facade} -->", _api_names(facade))
    if not page.file.src_uri.startswith("builtin/"):
        # a page's link to a built-in plugin's README (which works on GitHub and in an editor) leads to
        # that README's page in the site
        up = "../" * page.file.src_uri.count("/")
        markdown = _README_LINK.sub(lambda m: f"]({up}builtin/{m.group(1)}.md", markdown)
    return markdown

"""Applying a dataset's API-specific comparison rules (:mod:`wapii_core.datasets.rules`) to a request
before its URL is matched: the rules are the dataset's declarations, this module knows no API."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from wapii_core.datasets.rules import ApiRules


def with_rules(config: dict[str, Any], rules: ApiRules | None, strict: bool) -> dict[str, Any]:
    """A copy of ``config`` whose URL is rewritten by ``rules`` (``config`` itself when there are none).

    ``query_in_path``: the named parameters (from the URL's query, else from ``params``) are written
    into the path as the spec writes them, ``/?module=account&action=balance``; reference mode reads a
    path template as a regular expression, where that ``?`` makes the slash optional, so there the
    URL gets ``/module=account&action=balance``."""
    if rules is None:
        return config
    out = dict(config)
    for key in ("url", "sent_url"):  # sent_url: the URL as a wire capture sent it (wapii_core.judge.wire)
        if isinstance(config.get(key), str):
            out[key] = _rewritten(config[key], config, rules, strict)
    return out


def _rewritten(url: str, config: dict[str, Any], rules: ApiRules, strict: bool) -> str:
    """``url`` as ``rules`` rewrite it (``config``'s ``params`` may give the values moved into the path)."""
    for rewrite in rules.url_rewrites:
        url = re.sub(rewrite.pattern, rewrite.replacement, url)
    if rules.query_in_path:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
        params = config.get("params") if isinstance(config.get("params"), dict) else {}
        moved = []
        for name in rules.query_in_path:
            value = next((v for k, v in query if k == name), params.get(name))
            if isinstance(value, list) and len(value) == 1:
                value = value[0]
            if value is not None and not isinstance(value, (list, dict)):
                moved.append((name, str(value)))
        if moved:
            rest = [(k, v) for k, v in query if k not in rules.query_in_path]
            path = parts.path.rstrip("/") + ("/?" if strict else "/") + urlencode(moved)
            url = urlunsplit((parts.scheme, parts.netloc, path, "", "")) + (("&" if strict else "?") + urlencode(rest) if rest else "")
    return url

"""From a captured axios request to the neutral request config that is judged (metrics.md §3).

The decoding rules of §3 (percent-decoded URL, query string split into ``params``, JSON / form /
multipart body decoded, an empty or ``null`` body as ``{}``) run in the Node worker, inside the mock
adapter's reply (``wapii_axios_js/js/capture.js``), because JavaScript's semantics decide both the decoded
values and whether decoding fails (a failure there was a runtime error in the reference pipeline).
What arrives here is therefore the reference's logged config, restricted to the keys that are
judged and checked against a request config's schema (``answer.py``); this module keeps what the
judging reads and drops fields whose value is ``null``.
"""

from __future__ import annotations

from typing import Any

JUDGED_KEYS = ("url", "method", "headers", "params", "data", "path_params")
"""Keys of a captured config that the comparison reads. ``path_params`` is normally derived from the
URL by the judging; a call that sets such a config property itself keeps it, as in the reference."""


def normalise_request(request: dict[str, Any]) -> dict[str, Any]:
    """The neutral config ``{url, method, headers, params?, data?}`` of a captured request."""
    if not isinstance(request, dict):
        raise TypeError(f"a captured request is a JSON object, not {type(request).__name__}")
    return {key: request[key] for key in JUDGED_KEYS if request.get(key) is not None}

"""What the sandboxed Python workers of requests_py and httpx_py run: :data:`HARNESS` with
:data:`PRELOAD` imported and the :data:`WARMUP` snippets run once per worker before it forks (the
pool itself is :meth:`wapii_core.kits.python.PythonAdapterBase._start_pool`: ``wapii_core.sandbox.PythonPool``,
pre-loaded workers, each snippet in a forked child under rlimits, seccomp and the audit hook, inside
bubblewrap where available).
"""

from __future__ import annotations

HARNESS = "wapii_requests_py.harness:run_snippet"
PRELOAD = ["requests", "responses", "httpx", "respx", "wapii_requests_py.harness"]
WARMUP = [
    "import requests\nrequests.get('https://warm.example/a', params={'q': 1}, headers={'A': 'b'})\n",
    "import requests\nrequests.post('https://warm.example/a', json={'a': [1]})\n",
    "import requests\nrequests.post('https://warm.example/a', data={'a': 'b'}, files={'f': (None, 'x')})\n",
    "import httpx\nhttpx.post('https://warm.example/a', params={'q': True}, json={'a': 1})\n",
    "import httpx\nwith httpx.Client() as client:\n    client.post('https://warm.example/a', data={'a': 'b'}, files={'f': b'x'})\n",
    "import httpx\nasync with httpx.AsyncClient() as client:\n    await client.get('https://warm.example/a')\n",
]
"""Trusted snippets each worker runs once before forking: they start the harness's mocks and let the
libraries initialise what they set up on first use (patterns, mime tables, the event loop policy), so
that none of it is mistaken for a change made by a snippet (which would cost a fork per snippet)."""

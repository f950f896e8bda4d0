"""What the sandboxed Python workers of aiohttp_py run: :data:`HARNESS` with :data:`PRELOAD` imported
and the :data:`WARMUP` snippets run once per worker before it forks (the pool itself is
:meth:`wapii_core.kits.python.PythonAdapterBase._start_pool`)."""

from __future__ import annotations

HARNESS = "wapii_aiohttp_py.harness:run_snippet"
PRELOAD = ["aiohttp", "wapii_aiohttp_py.harness"]
_SESSION = "import aiohttp\nasync with aiohttp.ClientSession() as session:\n"
WARMUP = [
    _SESSION + "    async with session.get('https://warm.example/a', params={'q': 1}, headers={'A': 'b'}) as r:\n        pass\n",
    _SESSION + "    async with session.post('https://warm.example/a', json={'a': [1]}) as r:\n        pass\n",
    _SESSION + "    async with session.post('https://warm.example/a', data={'a': 'b'}) as r:\n        pass\n",
    _SESSION + "    async with session.put('https://warm.example/a', data=aiohttp.FormData({'a': 'b'},"
               " default_to_multipart=True)) as r:\n        pass\n",
    _SESSION + "    async with session.patch('https://warm.example/a', data='x') as r:\n        pass\n",
]
"""Trusted snippets each worker runs once before forking: aiohttp sets up on first use what they
touch (the event loop policy, payload and multipart machinery), so that none of it is mistaken for a
change made by a snippet (which would cost a fork per snippet)."""

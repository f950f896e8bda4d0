"""wapii adapter ``aiohttp_py``: Python programs that call a web API with aiohttp's async client."""

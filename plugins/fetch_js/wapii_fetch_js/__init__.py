"""wapii-fetch-js: the JavaScript fetch adapter of wapii (Node's WHATWG fetch, captured as sent)."""

__version__ = "0.1.0"

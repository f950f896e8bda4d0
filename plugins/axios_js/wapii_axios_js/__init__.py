"""wapii-axios-js: the JavaScript + axios adapter of wapii (Node.js worker pool, mock capture)."""

__version__ = "0.1.0"

"""wapii-requests-py: the Python + requests and Python + httpx adapters of wapii."""

__version__ = "0.1.0"

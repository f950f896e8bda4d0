"""wapii-okhttp-java: the adapter for OkHttp (Debian's libokhttp-java)."""

__version__ = "0.1.0"

"""wapii-httpclient-java: the adapter for Java's java.net.http.HttpClient (JDK 11+)."""

__version__ = "0.1.0"

"""wapii adapter for Go's ``net/http`` (``nethttp_go``)."""

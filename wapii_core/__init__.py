"""wapii: benchmark how well language models write code that calls web APIs."""

__version__ = "0.1.0"

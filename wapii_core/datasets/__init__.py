"""Datasets in the WAPIIBench layout: loading, fetching, checking and generating them."""

"""Judging and scoring: a captured request against the expected one and the spec; metric providers."""

"""The run directory: what a run writes, how it is resumed, and its lock."""

"""A run: the pipeline generate -> extract -> execute -> judge -> score, resumably."""

"""Reports: the paper's tables over run directories, their statistics, formats and plots."""

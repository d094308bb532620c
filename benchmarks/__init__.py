"""Benchmarks: scripts that print numbers next to a baseline measured in the same run."""

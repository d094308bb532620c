"""The webs focused is tested and benchmarked on, the harness that runs crawls of them, and the demo; the crawler never imports this package."""

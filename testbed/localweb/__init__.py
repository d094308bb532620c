"""The local web: a generated multi-host web served on loopback, for tests, demos and benchmarks."""

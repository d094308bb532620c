"""The benchmark web: real documentation from Debian packages, served under public names."""

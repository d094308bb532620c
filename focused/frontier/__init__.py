"""The frontier and its scheduler: records, evidence, per-host politeness, persistence and sharing, traps, URLs."""

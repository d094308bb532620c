"""What a fetched page holds: its main text and links, near-duplicates, spam, and how far to believe it."""

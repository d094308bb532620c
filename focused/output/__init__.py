"""What a crawl writes: items, feeds read back, WARC, progress."""

"""Judging a crawl against labels: harvest, recall, calibration, plots."""

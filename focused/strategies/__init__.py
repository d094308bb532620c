"""Ordering policies: each scores links before they are fetched. One module per policy."""

from focused.strategies.base import ParentPage, Scored, Strategy, load_strategy

__all__ = ["ParentPage", "Scored", "Strategy", "load_strategy"]

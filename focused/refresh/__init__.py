"""Keeping a collection fresh (Cho & Garcia-Molina 2000, 2003): page histories, change-rate estimates and the
revisit schedule that `-a mode=refresh` follows."""

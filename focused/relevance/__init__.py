"""Page relevance: the trained classifier, its training, the auditor, and the model thread that runs them."""

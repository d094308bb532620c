"""The fetch side: which hosts may be reached, names resolved, robots.txt read, dead hosts and failures, rendering."""

"""The hostile corpus: bad input kg must survive (see make.py)."""

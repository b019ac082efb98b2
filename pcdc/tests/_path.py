"""Puts pcdc/ and mininet-scripts/ on sys.path for the tests (import this first)."""

import os
import sys

PCDC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(PCDC)
for p in (os.path.join(REPO, "mininet-scripts"), PCDC):
    if p not in sys.path:
        sys.path.insert(0, p)

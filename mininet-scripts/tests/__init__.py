"""Unit tests of mpqoe and mpqoe.topo's pure functions (no root, no network):

    cd mininet-scripts && /usr/bin/python3 -m unittest discover -s tests -t .

test_contract.py runs `bin/mpqoe contract` (the launcher builds its jar when stale)."""

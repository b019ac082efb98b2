"""mpqoe's Python side: one package for every script, test and the workflow.

It lives in `python/mpqoe/` (`python/pyproject.toml`). `make` installs it editable into
Debian's /usr/bin/python3 (which runs Mininet, the runners and the reports) and into the
Snakemake venv; the testbed guest mounts the repository read-only at /mpqoe and finds the
package through PYTHONPATH=/mpqoe/python, set by testbed/run. Nothing puts a directory on
`sys.path`. Standard library only at import time: Mininet, scipy, numpy and matplotlib are
imported where a module needs them (mpqoe.debian installs Debian's on first use as root).

`REPO` is the checkout the package belongs to (data, descriptors, docs/results).

python/README.md lists the modules.
"""

import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

"""The video experiments' statistics: the shared ones of mininet-scripts/mpqoe_lib/stats.py,
which the scheduler experiments' report uses too (its docstring says what they are). This name
stays because the video report and the pages it generates refer to it."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "mininet-scripts"))  # fmt: skip

from mpqoe_lib.stats import *  # noqa: E402, F403
from mpqoe_lib.stats import np, st  # noqa: E402, F401

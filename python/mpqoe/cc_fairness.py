"""The fairness experiment of the coupled congestion controls (kernel-schedulers/cc-fairness):
its cells, the guest's network and timing, and the columns and paths of its per-run CSVs. The
runner (kernel-schedulers/cc-fairness/cc_run.py), its report and the workflow's plan read them here.
"""

import os

MODULES = ("lia", "olia", "balia")

# (case, MPTCP algorithm, competing regular TCP flow's algorithm or "-" for none)
CELLS = [
    ("shared", "lia", "reno"),
    ("shared", "olia", "reno"),
    ("shared", "balia", "reno"),
    ("shared", "reno", "reno"),
    ("shared", "cubic", "cubic"),
    ("disjoint", "lia", "-"),
    ("disjoint", "olia", "-"),
    ("disjoint", "balia", "-"),
    ("disjoint", "reno", "-"),
]

# The network and the timing (guest-init.sh): rates in netem's syntax and in Mbit/s.
PARAMS = {
    "RATE1": "10mbit",
    "RATE2": "5mbit",
    "LIMIT1": "34",  # packets: one bandwidth-delay product at 10 Mbit/s and 40 ms
    "LIMIT2": "17",  # the same at 5 Mbit/s
    "DELAY_MS": "40",
    "DURATION": "30",
    "WARM": "5",
    "MEASURE": "25",
}
RATE_MBPS = {"RATE1": 10.0, "RATE2": 5.0}

# appended to COLUMNS later (older CSVs end before them): each bottleneck queue's rate in frame
# bytes and its drops, from WARM s after the start to the sender's end (guest-init.sh)
PATH_COLUMNS = ("path1_mbps", "path2_mbps", "path1_drops", "path2_drops")

COLUMNS = [
    "case",
    "algo",
    "tcp_cc",
    "run",
    "mptcp_mbps",
    "tcp_mbps",
    "subflows",
    "guest_cpu_pct",
    "rate1_mbps",
    "rate2_mbps",
    "limit1_pkts",
    "limit2_pkts",
    "delay_ms",
    "warm_s",
    "measure_s",
    "code_version",
    "module_sha256",
    "kernel",
    "finished_utc",
    *PATH_COLUMNS,
]


def run_path(data, case, algo, run):
    return os.path.join(data, f"{case}_{algo}_run{run}.csv")

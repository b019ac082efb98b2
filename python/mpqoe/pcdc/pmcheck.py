"""The checks before a userspace path manager starts: the kernel's PM, privileges, netlink.

Each failure is one line on stderr and exit code 2, and nothing has been changed yet.
"""

import os
import sys

from mpqoe.pcdc import mptcp_genl as genl

CAP_NET_ADMIN = 12


def _read(path):
    try:
        with open(path, encoding="ascii") as f:
            return f.read().strip()
    except OSError:
        return None


def pm_problem(sysctl_dir="/proc/sys/net/mptcp"):
    """Why this namespace's MPTCP is not run by the userspace path manager, or None."""
    enabled = _read(os.path.join(sysctl_dir, "enabled"))
    if enabled is None:
        return "this kernel has no MPTCP (no /proc/sys/net/mptcp)"
    if enabled != "1":
        return "MPTCP is disabled here: sysctl -w net.mptcp.enabled=1"
    name = _read(os.path.join(sysctl_dir, "path_manager"))  # Linux 6.15+
    pm_type = _read(os.path.join(sysctl_dir, "pm_type"))
    if name is not None and name != "userspace":
        return f"the kernel's path manager is {name!r}, not the userspace one: " \
            "sysctl -w net.mptcp.pm_type=1"  # fmt: skip
    if name is None and pm_type != "1":
        return f"net.mptcp.pm_type is {pm_type}, not 1 (userspace): sysctl -w net.mptcp.pm_type=1"
    return None


def has_net_admin(status_path="/proc/self/status"):
    """Whether this process has CAP_NET_ADMIN in its effective set."""
    text = _read(status_path) or ""
    for line in text.splitlines():
        if line.startswith("CapEff:"):
            return bool(int(line.split()[1], 16) >> CAP_NET_ADMIN & 1)
    return os.geteuid() == 0


def require_userspace_pm(prog):
    """Exits with code 2 and one line when the PM, the privileges or the family are missing."""
    problem = pm_problem()
    if problem is None and not has_net_admin():
        problem = "needs CAP_NET_ADMIN (run as root) to drive the path manager"
    if problem is None:
        try:
            genl.MptcpPm().close()
        except genl.FamilyMissing:
            problem = "generic netlink family mptcp_pm missing (kernel without MPTCP netlink)"
        except OSError as e:
            problem = f"generic netlink: {e}"
    if problem is not None:
        print(f"{prog}: {problem}", file=sys.stderr)
        raise SystemExit(2)

"""Parsers of the kernel's counter files: /proc/net/netstat and /proc/net/mpqoe_<scheduler>.

The mpqoe file (format v1, written by kernel-schedulers/common) is a header line
`# mpqoe_<name> v1 key=value ...` and one line per connection of `key=value` fields, among them
`conn`, `state` (live/closed), `local`, `remote`, `decisions`, `switches` and `bytes` (per
subflow id, `1:689936,2:353536`).
"""

import os
import re

from mpqoe import REPO
from mpqoe.proc import sh

NETSTAT = "/proc/net/netstat"
# MPTCP schedulers the kernel has built in (Linux 6.12: its default); the others are modules
BUILTIN_SCHEDULERS = ("default",)
MODULES = os.path.join(
    REPO,
    "kernel-schedulers",
    "build",
    "modules",
)

_INT_FIELDS = {
    "conn",
    "start_ns",
    "end_ns",
    "decisions",
    "switches",
    "injections",
    "reinjections",
    "no_subflow",
    "room_limited",
    "no_room",
    "bytes_other",
    # a coupled control's (docs/coupled-cc.md)
    "members",
    "usable",
    "acks",
    "ss_acks",
    "reno_acks",
    "increases",
    "decreases",
    "losses",
    "rtos",
    "undos",
    "samples",
    "samples_lost",
    "collected",
}
_REQUIRED = ("conn", "local", "remote")
# what makes a line a scheduler's or a coupled control's: one of the two it must have
_KIND_FIELDS = (("decisions", "switches"), ("acks",))


def parse_netstat(text, group="MPTcpExt"):
    """{counter: value} of one group of /proc/net/netstat (a header line and a value line);
    {} when the group is absent; ValueError when the two lines differ in length."""
    lines = [ln.split() for ln in text.splitlines() if ln.startswith(group + ":")]
    if len(lines) < 2:
        return {}
    names, values = lines[0][1:], lines[1][1:]
    if len(names) != len(values):
        raise ValueError(f"{NETSTAT}: {group} header and values differ in length")
    return {n: int(v) for n, v in zip(names, values, strict=True)}


def read_netstat(group="MPTcpExt"):
    """parse_netstat of this process's network namespace; {} when unreadable."""
    try:
        with open(NETSTAT) as f:
            return parse_netstat(f.read(), group)
    except OSError:
        return {}


def netstat_counters(host, group="MPTcpExt"):
    """parse_netstat inside a Mininet host (anything with a `cmd` method)."""
    return parse_netstat(host.cmd(f"cat {NETSTAT}"), group)


def counter_deltas(before, after):
    """{counter: after - before} of the counters that changed."""
    return {k: v - before.get(k, 0) for k, v in after.items() if v != before.get(k, 0)}


TAINTED = "/proc/sys/kernel/tainted"
# Taint flags that mean something went wrong (Documentation/admin-guide/tainted-kernels.rst),
# bit: letter. Loading this project's modules sets O (out of tree) and E (unsigned), which say
# nothing about the kernel's health, so they are left out.
TROUBLE_TAINTS = {4: "M", 5: "B", 7: "D", 9: "W", 14: "L"}
# Kernel log lines that report trouble (a WARN_ON, a BUG or oops, a panic, a fault, a lockup or
# stall, a sanitizer's report): testbed/kernel-trouble.ere, one extended regular expression a
# line, the one list that this module, the experiment runner, testbed/run and the kernel smoke
# guests (grep -E -f) all read.
TROUBLE_FILE = os.path.join(
    REPO,
    "testbed",
    "kernel-trouble.ere",
)


def _trouble_line():
    with open(TROUBLE_FILE) as f:
        return re.compile("|".join(ln.rstrip("\n") for ln in f if ln.strip()))


TROUBLE_LINE = _trouble_line()


def parse_health(tainted, log):
    """{"tainted": the taint mask, "taints": letters of its TROUBLE_TAINTS, "lines": the kernel
    log's lines that report trouble} of /proc/sys/kernel/tainted's text and the kernel log's;
    ValueError when the mask is not a number."""
    mask = int(tainted.strip())
    return {
        "tainted": mask,
        "taints": "".join(c for bit, c in sorted(TROUBLE_TAINTS.items()) if mask >> bit & 1),
        "lines": [ln.strip() for ln in log.splitlines() if TROUBLE_LINE.search(ln)],
    }


def read_health():
    """parse_health of this machine's kernel: its taint mask and its log (dmesg);
    RuntimeError when the log cannot be read (dmesg needs root where dmesg_restrict is set)."""
    with open(TAINTED) as f:
        tainted = f.read()
    log = sh(["dmesg"], timeout=30)
    if log.returncode:
        raise RuntimeError(f"dmesg: {log.stderr.strip() or f'exit status {log.returncode}'}")
    return parse_health(tainted, log.stdout)


def health_change(before, after):
    """What went wrong in the kernel between two read_health results: the taint letters and
    trouble lines of after that before lacked (a line is known by its text, with its time)."""
    seen = set(before["lines"])
    return {
        "tainted": after["tainted"],
        "new_taints": "".join(c for c in after["taints"] if c not in before["taints"]),
        "new_lines": [ln for ln in after["lines"] if ln not in seen],
    }


def parse_mpqoe_line(line):
    """One connection line of /proc/net/mpqoe_<name>, a scheduler's or a coupled control's, as a
    dict (integer fields as int, bytes as {subflow id (str): bytes}, other per-subflow lists such
    as a coupled control's cwnd as text); ValueError when malformed."""
    out = {}
    for item in line.split():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"malformed field {item!r}")
        if key in _INT_FIELDS:
            out[key] = int(value)
        elif key == "bytes":
            per = {}
            for pair in filter(None, value.split(",")):
                sid, sep, n = pair.partition(":")
                if not sep:
                    raise ValueError(f"malformed bytes entry {pair!r}")
                per[str(int(sid))] = int(n)
            out[key] = per
        else:
            out[key] = value
    for key in _REQUIRED:
        if key not in out:
            raise ValueError(f"missing field {key!r}")
    if not any(all(k in out for k in kind) for kind in _KIND_FIELDS):
        raise ValueError(
            "missing fields: a scheduler's decisions and switches, or a coupled control's acks"
        )
    return out


def parse_mpqoe(text):
    """(header dict, [connection dicts, each with its `raw` line]) of /proc/net/mpqoe_<name>;
    ValueError when malformed or not format v1."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines or not lines[0].startswith("#"):
        raise ValueError("no header line")
    words = lines[0][1:].split()
    if len(words) < 2 or words[1] != "v1":
        raise ValueError(f"unsupported header {lines[0]!r} (want v1)")
    header = {"module": words[0], "version": words[1]}
    for w in words[2:]:
        k, _, v = w.partition("=")
        header[k] = int(v) if v.isdigit() else v
    conns = []
    for ln in lines[1:]:
        try:
            conns.append(dict(parse_mpqoe_line(ln), raw=ln))
        except ValueError as e:
            raise ValueError(f"{e} in line {ln!r}") from None
    return header, conns


def mpqoe_path(name):
    return f"/proc/net/mpqoe_{name}"


def mpqoe_connections(host, name):
    """(header, [connections], text) of a Mininet host's /proc/net/mpqoe_<name>; ValueError
    (with the file's first line) when it is missing or malformed."""
    text = host.cmd(f"cat {mpqoe_path(name)} 2>&1")
    try:
        header, conns = parse_mpqoe(text)
    except ValueError as e:
        first = text.strip().splitlines()[:1]
        raise ValueError(f"{mpqoe_path(name)}: {e} ({first[0] if first else 'empty'})") from None
    return header, conns, text


def norm_addr(addr):
    """Canonical "ip:port": a v4-mapped IPv6 address shown as IPv4."""
    if addr.startswith("[::ffff:") and "." in addr:
        host, _, port = addr[len("[::ffff:") :].partition("]:")
        return f"{host}:{port}"
    return addr


def find_connection(conns, local=None, remote=None, local_port=None):
    """The connection of these addresses (any that is None matches all): the last live one,
    else the last one; None when there is none."""
    found = [
        c
        for c in conns
        if (local is None or norm_addr(c["local"]) == norm_addr(local))
        and (remote is None or norm_addr(c["remote"]) == norm_addr(remote))
        and (local_port is None or c["local"].rsplit(":", 1)[-1] == str(local_port))
    ]
    live = [c for c in found if c.get("state") == "live"]
    return (live or found)[-1] if found else None


def module_file(name, modules=None):
    """The file of this project's module `name` (a scheduler or a congestion control) in
    `modules` (default MODULES)."""
    return os.path.join(modules or MODULES, f"mpqoe_{name}.ko")


def unbuilt(names, modules=None):
    """File names of the modules of these names that are not built in `modules` (default
    MODULES), in the order of `names`."""
    return [
        os.path.basename(module_file(n, modules))
        for n in names
        if not os.path.isfile(module_file(n, modules))
    ]


def load_testbed_modules(schedulers=(), modules=MODULES, ccs=()):
    """In the testbed guest: netem, Open vSwitch and BBR from the kernel, then this project's
    scheduler modules `mpqoe_<name>.ko` (built on the host by `make -C kernel-schedulers
    modules`) unless the kernel already offers `name`, and its congestion control modules
    (load_modules). RuntimeError naming what failed."""
    for mod in ("sch_netem", "openvswitch", "tcp_bbr"):
        r = sh(["modprobe", mod], timeout=30)
        if r.returncode != 0:
            raise RuntimeError(f"modprobe {mod}: {r.stderr.strip()}")
    load_modules(schedulers=schedulers, ccs=ccs, modules=modules)


def modules_kernel(modules=MODULES, field="kernel"):
    """What the modules' kernel.txt (written by their build) says of the kernel they were built
    for: field "kernel" its uname -r, "debian" its Debian version; "" when not recorded."""
    try:
        with open(os.path.join(modules, "kernel.txt")) as f:
            pre = field + "="
            return next((ln[len(pre) :].strip() for ln in f if ln.startswith(pre)), "")
    except OSError:
        return ""


def load_modules(schedulers=(), ccs=(), modules=MODULES):
    """This project's scheduler modules (through mpqoe-load) and congestion control modules
    (lia, olia, balia: plain insmod) `mpqoe_<name>.ko` for each name the kernel does not offer
    yet. RuntimeError naming what failed (a missing .ko, a refused load)."""
    loader = ["sh", os.path.join(modules, "mpqoe-load")]
    offered = (
        ("/proc/sys/net/mptcp/available_schedulers", schedulers, loader),
        ("/proc/sys/net/ipv4/tcp_available_congestion_control", ccs, ["insmod"]),
    )
    for available, names, load in offered:
        for name in names:
            with open(available) as f:
                if name in f.read().split():
                    continue
            ko = module_file(name, modules)
            if not os.path.isfile(ko):
                raise RuntimeError(f"{ko} missing: run make -C kernel-schedulers modules")
            built = modules_kernel(modules)
            if built and built != os.uname().release:
                raise RuntimeError(
                    f"{modules} were built for {built}, this kernel is {os.uname().release}: "
                    "build them for it (make -C kernel-schedulers modules KERNEL=...)"
                )
            r = sh([*load, ko], timeout=30)
            if r.returncode != 0:
                what = os.path.basename(load[-1])
                raise RuntimeError(f"{what} {ko}: {(r.stdout + r.stderr).strip()[-300:]}")


# testbed/run writes this line into the console log when a boot died before the command
# started, and boots the guest again: nothing of the command ran in the boot that died
_BOOT_RETRIED = re.compile(r"testbed: boot \d+ died before COMMAND started")


def kernel_reports(console_log, limit=8):
    """(reports, retried): the first lines of a guest's kernel console that report a kernel
    problem (BUG, oops, warning, panic, stall), from the boot that ran the command and from
    boots that died before it started and were booted again; ([], []) when there are none or
    the log is missing."""
    try:
        with open(console_log, errors="replace") as f:
            lines = [line.rstrip() for line in f]
    except OSError:
        return [], []
    cut = max((i + 1 for i, line in enumerate(lines) if _BOOT_RETRIED.match(line)), default=0)

    def hits(part):
        return [line for line in part if TROUBLE_LINE.search(line)][:limit]

    return hits(lines[cut:]), hits(lines[:cut])

#!/usr/bin/python3
"""What a node needs to make runs of the workflow, checked before a run job starts its runner.

    preflight.py video|scheduler|cc [SCHEDULER ...]
    preflight.py pcdc CC

Exit 0 and one line naming the node when everything is there; otherwise exit 1 with one line
on stderr: `preflight on NODE: WHAT (how to get it)`, the first thing missing. Cheap (well
under a second), no guest is booted. What it checks:

- root: the runners start QEMU, OVS and Mininet in the guest and, for the video runs,
  network namespaces and the controller's ports on the host;
- qemu-system-x86_64 with virtio-9p (the guest mounts the repository and its results through
  it; TCG, so no /dev/kvm is needed);
- the testbed guest built for this checkout (testbed/lib.sh names it by a hash of its inputs;
  `make testbed` builds it, as root, with debootstrap: not something to do inside a job);
- memory for the guest (4 GiB) and the host's side;
- scheduler runs: the scheduler modules the cells load (kernel-schedulers/build/modules) and
  the video probe;
- video runs: Java 17 and the controller's jar, Node.js and dash.js (dashjs-harness), and
  Debian's Chromium;
- fairness runs (cc): root, QEMU, the coupled controls' modules and Debian's kernel image
  unpacked in the kernel cache (they boot it with a busybox initramfs, not the testbed guest);
- PCDC runs and tables (`make -C pcdc guest NO_BUILD=1`): make, and the congestion control's
  module where it is one of this project's coupled controls (mpqoe_olia.ko for olia).
"""

import os
import shutil
import socket
import subprocess
import sys

from mpqoe import dash_harness
from mpqoe.kernel import modules_kernel, unbuilt

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

GUEST_MEM_MB = 4096  # testbed/run's default --mem
HOST_MEM_MB = 1024
COUPLED = ("lia", "olia", "balia")  # kernel-schedulers' congestion control modules


class Missing(Exception):
    pass


def guest_dir():
    r = subprocess.run(
        ["bash", "-c", 'source "$1" && guest_dir', "-", os.path.join(REPO, "testbed", "lib.sh")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return r.stdout.strip() if r.returncode == 0 else None


def mem_available_mb():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return None


def check_common():
    if os.geteuid() != 0:
        raise Missing("not root (the runs start QEMU and network namespaces; run the job as root)")
    qemu = shutil.which("qemu-system-x86_64")
    if not qemu:
        raise Missing("no qemu-system-x86_64 (apt-get install qemu-system-x86)")
    r = subprocess.run([qemu, "-device", "help"], capture_output=True, text=True, check=False)
    if "virtio-9p" not in r.stdout + r.stderr:
        raise Missing(f"{qemu} has no virtio-9p device (Debian's qemu-system-x86 has it)")
    g = guest_dir()
    if not g or not os.path.isfile(os.path.join(g, "stamp")):
        raise Missing(f"no testbed guest built for this checkout at {g} (run `make testbed` there)")
    mem = mem_available_mb()
    if mem is not None and mem < GUEST_MEM_MB + HOST_MEM_MB:
        raise Missing(f"{mem} MiB of memory available, want {GUEST_MEM_MB + HOST_MEM_MB}")


def check_scheduler(schedulers):
    gone = unbuilt(schedulers)
    if gone:
        names = ", ".join(gone)
        raise Missing(f"scheduler modules not built: {names} (make -C kernel-schedulers modules)")
    if not os.path.isfile(os.path.join(REPO, "testbed", "probe", "vprobe.py")):
        raise Missing("no testbed/probe/vprobe.py")


def check_video():
    if not shutil.which("java"):
        raise Missing("no java (apt-get install openjdk-17-jdk-headless)")
    jar = os.path.join(REPO, "floodlight-module", "cli", "target", "mpqoe.jar")
    if not os.path.isfile(jar):
        raise Missing("the controller's jar is not built (make build)")
    if not shutil.which("node"):
        raise Missing("no node (make video-deps)")
    for name in sorted(dash_harness.players()["players"]):
        if not os.path.isdir(dash_harness.player_build(name)):
            raise Missing(f"dash.js is not installed for player {name} (make video-deps)")
    if not os.path.isfile("/usr/lib/chromium/chromium"):
        raise Missing("no /usr/lib/chromium/chromium (make video-deps)")


def check_cc():
    """The fairness experiment boots Debian's kernel from its own cache through
    kernel-schedulers/smoke/run.sh (a busybox initramfs, not the testbed guest)."""
    gone = unbuilt(COUPLED)
    if gone:
        names = ", ".join(gone)
        raise Missing(f"modules not built: {names} (make -C kernel-schedulers modules)")
    # the kernel the modules were built for (their kernel.txt), in kmod/debian-kernel's cache
    debver = modules_kernel(field="debian")
    if not debver:
        raise Missing("the modules' kernel.txt names no kernel (make -C kernel-schedulers modules)")
    root = os.environ.get("MPQOE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "mpqoe"
    )
    cache = os.path.join(root, "kernel", debver)
    if not os.path.isfile(os.path.join(cache, ".image.done")):
        raise Missing(f"no kernel image unpacked in {cache} (make -C kernel-schedulers smoke-deps)")
    for cmd, pkg in (("busybox", "busybox-static"), ("cpio", "cpio"), ("gcc", "gcc")):
        if not shutil.which(cmd):
            raise Missing(f"no {cmd} (apt-get install {pkg})")


def check_pcdc(ccs):
    """The driver runs in the testbed guest through make; a coupled control is loaded there
    from this project's module (other controls are the guest kernel's)."""
    if not shutil.which("make"):
        raise Missing("no make (apt-get install make)")
    gone = unbuilt([c for c in ccs if c in COUPLED])
    if gone:
        names = ", ".join(gone)
        raise Missing(f"modules not built: {names} (make -C kernel-schedulers modules)")


def main(argv):
    if not argv or argv[0] not in ("video", "scheduler", "cc", "pcdc"):
        print("preflight.py: want video|scheduler|cc [SCHEDULER ...] or pcdc CC", file=sys.stderr)
        return 2
    node = socket.gethostname()
    try:
        if argv[0] == "cc":
            if os.geteuid() != 0:
                raise Missing("not root (the fairness experiment boots QEMU; run the job as root)")
            if not shutil.which("qemu-system-x86_64"):
                raise Missing("no qemu-system-x86_64 (apt-get install qemu-system-x86)")
            check_cc()
        else:
            check_common()
        if argv[0] == "video":
            check_video()
        elif argv[0] == "scheduler":
            check_scheduler(argv[1:])
        elif argv[0] == "pcdc":
            check_pcdc(argv[1:])
    except Missing as e:
        print(f"preflight on {node}: {e}", file=sys.stderr)
        return 1
    print(f"preflight on {node}: ready for {argv[0]} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

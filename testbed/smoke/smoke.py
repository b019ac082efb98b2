#!/usr/bin/python3
"""Smoke test of the testbed guest (run inside it by `make -C testbed smoke`, see docs/testbed.md).

    testbed/run -- /usr/bin/python3 testbed/smoke/smoke.py [--scheduler gr_sty] [--bytes N]

Checks, in the guest booted from Debian's 6.12 kernel:
1. the kernel features the experiments need: sch_netem, openvswitch and tcp_bbr load;
2. one of this project's scheduler modules loads (kernel-schedulers/build/modules, built on
   the host by `make -C kernel-schedulers modules`) and shows up in available_schedulers;
3. Open vSwitch starts on the kernel datapath and Mininet builds three-path from its
   descriptor with the netem delays applied: the RTT of path k measured by ping is at least
   the descriptor's 50/100/100 ms and at most 40 ms more;
4. one MPTCP download over the three netem-delayed paths with the module as the server's
   scheduler: 3 subflows, each carried data, and the module's /proc/net/mpqoe_<name> lists
   the connection with per-subflow bytes that sum to the transfer exactly;
5. after the network is gone, the module unloads;
6. with --controller IP:PORT (the host's 127.0.0.1 is 10.0.2.2 in the guest), three-path is
   built again with its switches in secure fail mode under that remote controller (bin/mpqoe
   controller running on the host, started by testbed/smoke/run-smoke.sh): every switch
   connects, and an MPTCP download runs through the rules it installs (one path: the
   controller selects paths from the first-hop switch p1, which reaches the server one way,
   so the two joins stay without data).

Prints PASS/FAIL lines and a summary; exit 0 when every check passed. Stops itself after
--timeout seconds.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import time

from mininet.log import setLogLevel
from mpqoe import bulk, checks, kernel, network
from mpqoe import topo as mq
from mpqoe.proc import last_json, loss_line, sh

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


MODULES = os.path.join(REPO, "kernel-schedulers", "build", "modules")
BASE_RTT_MS = {"p1": 50.0, "p2": 100.0, "p3": 100.0}  # three-path.json, two directions


def min_rtt_ms(ping_out):
    m = re.search(r"= ([\d.]+)/([\d.]+)/([\d.]+)", ping_out)
    return float(m.group(1)) if m else None


def kernel_features(t):
    for mod in ("sch_netem", "openvswitch", "tcp_bbr"):
        r = sh(["modprobe", mod])
        t.check(f"modprobe {mod}", r.returncode == 0, r.stderr.strip())


def load_scheduler(t, name):
    ko = os.path.join(MODULES, f"mpqoe_{name}.ko")
    loader = os.path.join(MODULES, "mpqoe-load")
    if not (os.path.isfile(ko) and os.path.isfile(loader)):
        t.check(f"{ko} and mpqoe-load exist", False, "run make -C kernel-schedulers modules")
        return False
    r = sh(["sh", loader, ko], timeout=30)
    avail = open("/proc/sys/net/mptcp/available_schedulers").read().split()
    return t.check(
        f"mpqoe-load mpqoe_{name}.ko: {name} in available_schedulers",
        r.returncode == 0 and name in avail,
        (r.stdout + r.stderr).strip()[-300:] or " ".join(avail),
    )


def three_path(t, name, size):
    topo = mq.DescriptorTopo("three-path", fail_mode="secure")
    t.check(
        "Mininet topology with netem delays (nothing dropped)",
        topo.netem and not topo.dropped,
        f"netem={topo.netem} dropped={topo.dropped}",
    )
    env = network.Network(topo, force_clean=True)
    with env as net:
        dp = sh(["ovs-dpctl", "show"]).stdout
        t.check(
            "OVS kernel datapath",
            "system@ovs-system" in dp,
            dp.splitlines()[0] if dp else "ovs-dpctl show: nothing",
        )
        for s in net.switches:
            mq.add_normal_flows(s)
        server, client = net.get("server", "client")
        sip = mq.host_interfaces(server)[0][1]
        for (intf, _ip), path in zip(mq.host_interfaces(client), ("p1", "p2", "p3"), strict=True):
            out = client.cmd(f"timeout 10 ping -c 4 -i 0.2 -W 2 -I {intf} {sip}")
            rtt = min_rtt_ms(out)
            want = BASE_RTT_MS[path]
            t.check(
                f"ping over {path}: RTT in [{want:g}, {want + 40:g}] ms",
                rtt is not None and want <= rtt <= want + 40,
                f"min RTT {rtt} ms" if rtt is not None else loss_line(out),
            )
        server.cmd(f"sysctl -w net.mptcp.scheduler={name}")
        download(t, server, client, size, f"with {name} over netem paths")
        try:
            _header, conns, raw = kernel.mpqoe_connections(server, name)
        except ValueError as e:
            conns, raw = [], str(e)
        per = conns[-1].get("bytes", {}) if conns else {}
        t.check(
            f"/proc/net/mpqoe_{name}: the connection, 3 subflows, bytes sum to {size}",
            len(conns) == 1 and len(per) == 3 and sum(per.values()) == size,
            raw.strip().splitlines()[-1] if raw.strip() else "empty",
        )
        if conns:
            c = conns[-1]
            print(
                f"  {name}: decisions={c.get('decisions')} switches={c.get('switches')} "
                f"injections={c.get('injections')} bytes={c.get('bytes')}",
                flush=True,
            )


def download(t, server, client, size, what, carriers=3):
    """One mptcp_bulk download server -> client over 3 subflows; checks that the first
    `carriers` carried data and the others none."""
    sip = mq.host_interfaces(server)[0][1]
    mq.enable_mptcp(server)
    mq.enable_mptcp(client)
    srv = server.popen(
        bulk.server_cmd(count=1),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        t.check("bulk server listens", "listening" in srv.stdout.readline())
        t0 = time.monotonic()
        out = client.cmd("timeout 60 " + " ".join(bulk.client_cmd(sip, size)))
        elapsed = time.monotonic() - t0
        srv.communicate(timeout=10)
    finally:
        if srv.poll() is None:
            srv.kill()
            srv.wait(timeout=5)
    report = last_json(out)
    subflows = (report.get("mptcp") or {}).get("subflow_list") or []
    carried = [bool(s["bytes_received"]) for s in subflows]
    t.check(
        f"MPTCP download of {size} bytes {what}: 3 subflows, "
        + ("each carried data" if carriers == 3 else f"data on the first {carriers} only"),
        report.get("bytes") == size and carried == [i < carriers for i in range(3)],
        f"{report.get('mbps')} Mbit/s in {elapsed:.1f} s; "
        + ", ".join(f"{s['local']} {s['bytes_received']} B" for s in subflows),
    )


def via_controller(t, target, size):
    ip, port = target.rsplit(":", 1)
    topo = mq.DescriptorTopo("three-path", fail_mode="secure")
    with network.Network(topo, force_clean=True, controller=(ip, int(port))) as net:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            state = network.controller_connected()
            if state and all(state.values()):
                break
            time.sleep(0.5)
        t.check(
            f"every switch connected to the controller at {target}",
            state and all(state.values()),
            str(state),
        )
        server, client = net.get("server", "client")
        # The client's interfaces sit on p1, p2 and p3: the controller selects among the paths
        # from all three switches and routes each subflow from its own interface's switch (an
        # interface without a selected path, the MP_CAPABLE's on the shortest path), so all
        # three subflows carry data.
        download(t, server, client, size, "through the controller's rules")
        hits = {s.name: sum(f["n_packets"] for f in mq.flow_counters(s)) for s in net.switches}
        t.check(
            "the controller's rules counted packets on every switch", all(hits.values()), str(hits)
        )


def main():
    p = argparse.ArgumentParser(description="testbed smoke test (inside the guest, as root)")
    p.add_argument("--scheduler", default="gr_sty", help="module to load (default gr_sty)")
    p.add_argument("--bytes", type=int, default=1_500_000, help="MPTCP download size")
    p.add_argument("--timeout", type=int, default=240, help="stop after this many seconds")
    p.add_argument("--controller", metavar="IP:PORT", help="also test a remote controller")
    args = p.parse_args()
    if not re.fullmatch(r"[a-z_]+", args.scheduler):
        p.error(f"--scheduler: not a scheduler name: {args.scheduler!r}")
    if args.controller and not re.fullmatch(r"[\d.]+:\d{1,5}", args.controller):
        p.error(f"--controller wants IP:PORT, got {args.controller!r}")
    if os.geteuid() != 0:
        print("smoke: run as root (inside the testbed guest)", file=sys.stderr)
        return 2
    setLogLevel("warning")

    checks.deadline(args.timeout, term=False)
    t = checks.Checks()
    print(f"smoke: kernel {os.uname().release}", flush=True)
    try:
        kernel_features(t)
        if load_scheduler(t, args.scheduler):
            print(f"OVS: {network.ensure_ovs()}; datapath {mq.ovs_datapath()}", flush=True)
            three_path(t, args.scheduler, args.bytes)
            r = sh(["rmmod", f"mpqoe_{args.scheduler}"])
            t.check(f"rmmod mpqoe_{args.scheduler} once unused", r.returncode == 0, r.stderr)
            if args.controller:
                via_controller(t, args.controller, args.bytes)
    except (checks.Timeout, RuntimeError, mq.MpqoeError, subprocess.SubprocessError) as e:
        t.check("ran to the end", False, str(e))
    finally:
        signal.alarm(0)
    return t.summary("smoke")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""N dash.js clients in Mininet hosts, each dual-homed to one MPTCP server host.

    /usr/bin/python3 examples/mininet_dash.py [--clients 2] [--bw 2] [--duration 30]
                                              [--segment 2] [--out DIR] [-- RUN-FLAGS...]

Builds a Mininet network without switches (host-to-host TCLinks, bandwidth by htb; this kernel
has no netem, so no delay): server h0 (10.0.0.1 on its loopback) and clients h1..hN, client i
linked to h0 by two links (10.i.1.0/24 and 10.i.2.0/24). Each client sends to 10.0.0.1 over its
first link, a source rule sends traffic from its second address over the second link, and an
MPTCP `subflow` endpoint there opens the second subflow. Then one command plays every client:

    run --clients N --server-netns pid:<h0.pid> --netns pid:<h1.pid>,... --server-addr 10.0.0.1

(`pid:N` makes the runner enter the network namespace of process N, which is how a Mininet host
is addressed from outside; inside a host, `host.cmd('.../run ...')` works too). Flags after `--`
go to `run`. Run as root with Debian's python3 (Mininet's package lives there).
"""

import argparse
import os
import subprocess
import sys

from mininet.link import TCLink
from mininet.log import setLogLevel
from mininet.net import Mininet

HOME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = os.path.join(HOME, "run")
SERVER_ADDR = "10.0.0.1"


def build(n, bw):
    net = Mininet(controller=None, switch=None, link=TCLink, autoSetMacs=True, build=False)
    h0 = net.addHost("h0", ip=None)
    clients = [net.addHost(f"h{i}", ip=None) for i in range(1, n + 1)]
    for i, h in enumerate(clients, start=1):
        for p in (1, 2):
            net.addLink(
                h, h0, bw=bw, params1={"ip": f"10.{i}.{p}.2/24"}, params2={"ip": f"10.{i}.{p}.1/24"}
            )
    net.build()
    h0.cmd(f"ip addr add {SERVER_ADDR}/32 dev lo")
    for h in [h0, *clients]:
        h.cmd("sysctl -qw net.mptcp.enabled=1 net.ipv4.conf.all.rp_filter=0")
        h.cmd("ip mptcp endpoint flush; ip mptcp limits set subflows 2 add_addr_accepted 0")
    for i, h in enumerate(clients, start=1):
        i1, i2 = h.intfList()[0].name, h.intfList()[1].name
        h.cmd(f"ip route add {SERVER_ADDR} via 10.{i}.1.1 dev {i1}")
        h.cmd(f"ip rule add from 10.{i}.2.2 table 102")
        h.cmd(f"ip route add {SERVER_ADDR} via 10.{i}.2.1 dev {i2} table 102")
        h.cmd(f"ip mptcp endpoint add 10.{i}.2.2 dev {i2} subflow")
    return net, h0, clients


def main():
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    argv = argv[: argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=2)
    ap.add_argument("--bw", type=float, default=2.0, help="Mbit/s of every link")
    ap.add_argument("--duration", type=int, default=30)
    ap.add_argument("--segment", type=float, default=2)
    ap.add_argument("--out", default=os.path.join(HOME, "results", "mininet"))
    args = ap.parse_args(argv)
    if not 1 <= args.clients <= 50:
        ap.error("--clients must be in 1..50")
    setLogLevel("warning")
    net, h0, clients = build(args.clients, args.bw)
    try:
        cmd = [RUN, "--clients", str(args.clients), "--duration", str(args.duration)]
        cmd += ["--segment", str(args.segment), "--server-netns", f"pid:{h0.pid}"]
        cmd += ["--netns", ",".join(f"pid:{h.pid}" for h in clients)]
        cmd += ["--server-addr", SERVER_ADDR, "--out", args.out, *extra]
        print("$ " + " ".join(cmd), flush=True)
        return subprocess.run(cmd).returncode
    finally:
        net.stop()


if __name__ == "__main__":
    sys.exit(main())

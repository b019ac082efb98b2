#!/usr/bin/python3
"""The guest's half of the LLDP delay measurement (testbed/lldp-delay/measure.py runs it).

    testbed/run -- /usr/bin/python3 testbed/lldp-delay/guest.py --controller IP:PORT \\
        --stop /results/FILE [--timeout SEC]

Builds testbed/lldp-delay/topology.json in Mininet on the kernel datapath, netem delays on
both ends of each link, every switch in secure fail mode under the remote controller, and
keeps it until the host creates the --stop file (the results directory is shared) or the
timeout passes. Prints when every switch is connected. Exit 0 when the network was built and
every switch connected at least once.
"""

import argparse
import os
import re
import subprocess
import sys
import time

from mininet.log import setLogLevel
from mpqoe import network
from mpqoe import topo as mq
from mpqoe.proc import sh

HERE = os.path.dirname(os.path.abspath(__file__))


TOPOLOGY = os.path.join(HERE, "topology.json")


def main():
    p = argparse.ArgumentParser(description="LLDP delay measurement, guest side (as root)")
    p.add_argument("--controller", required=True, metavar="IP:PORT")
    p.add_argument("--stop", required=True, help="keep the network until this file exists")
    p.add_argument("--timeout", type=int, default=900, help="give up after this many seconds")
    args = p.parse_args()
    if not re.fullmatch(r"[\d.]+:\d{1,5}", args.controller):
        p.error(f"--controller wants IP:PORT, got {args.controller!r}")
    if os.geteuid() != 0:
        print("lldp-delay: run as root (inside the testbed guest)", file=sys.stderr)
        return 2
    setLogLevel("warning")
    for mod in ("sch_netem", "openvswitch"):
        sh(["modprobe", mod])
    print(f"lldp-delay: OVS {network.ensure_ovs()}; datapath {mq.ovs_datapath()}", flush=True)
    ip, port = args.controller.rsplit(":", 1)
    topo = mq.DescriptorTopo(TOPOLOGY, shape=False, netem=True, fail_mode="secure")
    connected = False
    deadline = time.monotonic() + args.timeout
    with network.Network(topo, force_clean=True, controller=(ip, int(port))):
        netem = sh(["tc", "qdisc", "show"]).stdout.count("netem")
        print(f"lldp-delay: network up, {netem} netem qdiscs", flush=True)
        while not os.path.exists(args.stop) and time.monotonic() < deadline:
            state = network.controller_connected()
            if state and all(state.values()) and not connected:
                connected = True
                print(f"lldp-delay: every switch connected to {args.controller}", flush=True)
            time.sleep(1)
    print("lldp-delay: stopped" + ("" if os.path.exists(args.stop) else " (timeout)"), flush=True)
    return 0 if connected else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (mq.MpqoeError, subprocess.SubprocessError) as e:
        print(f"lldp-delay: {e}", file=sys.stderr)
        sys.exit(1)

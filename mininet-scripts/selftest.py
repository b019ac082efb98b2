#!/usr/bin/python3
"""Self-test of the Mininet side, without the controller. Run as root with Debian's python3:

    /usr/bin/python3 mininet-scripts/selftest.py [--timeout 60] [-v]

1. compuserve (11 switches, loops): OVS in secure fail mode with no controller, so nothing is
   forwarded and the loops do not matter; checks DPIDs and that OpenFlow port numbers follow the
   descriptor rule (and that the check does catch a wrong numbering).
2. three-path (loop-free): rules `actions=NORMAL` added by hand (priority 0, plus priority-10
   tcp and arp rules to count on); checks port numbers, pings each client interface <-> the
   server, then one MPTCP download (mptcp_bulk.py) that must run over 3 subflows, one per
   client interface: the server's MPTcpExt MPJoinSynRx grows by 2, the client's socket lists
   3 subflows from 3 local addresses, and the tcp rule of each of p1, p2, p3 counts packets.

Stops itself after --timeout seconds. On exit it stops the network and removes only what it
made (its bridges, its veths, its processes); it does not run `mn -c`, which also deletes
/tmp/*.log and /tmp/*.out and kills every `mininet:` process on the machine. Exit code 0 when
every check passed.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time

from mininet.log import setLogLevel
from mininet.net import Mininet
from mininet.node import RemoteController

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpqoe_topo as mq  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/usr/bin/python3"
BULK = os.path.join(HERE, "mptcp_bulk.py")
OVS_CTL = "/usr/share/openvswitch/scripts/ovs-ctl"


class Timeout(Exception):
    pass


class Test:
    def __init__(self):
        self.results = []
        self.failed = 0

    def check(self, name, ok, detail=""):
        self.results.append((name, bool(ok), detail))
        if not ok:
            self.failed += 1
        mark = "PASS" if ok else "FAIL"
        print(f"  [{mark}] {name}" + (f": {detail}" if detail else ""), flush=True)
        return ok


def sh(args, timeout=15):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout)


def ensure_ovs():
    if sh(["ovs-vsctl", "--timeout=3", "show"]).returncode == 0:
        return "running"
    r = sh([OVS_CTL, "start"], timeout=60)
    if sh(["ovs-vsctl", "--timeout=3", "show"]).returncode != 0:
        raise RuntimeError(f"Open vSwitch does not start: {r.stdout}{r.stderr}")
    return "started"


def leftovers(topo):
    """Bridges or root-namespace links with this topology's names that already exist."""
    bridges = set(sh(["ovs-vsctl", "--timeout=3", "list-br"]).stdout.split())
    links = sh(["ip", "-o", "link", "show"]).stdout
    mine = set(topo.names.values())
    found = sorted(mine & bridges)
    for s in mine:
        if f" {s}-eth" in links:
            found.append(f"{s}-eth*")
    return found


def sweep(topo):
    """Remove what a topology's network may have left: its bridges and switch-side veths."""
    for s in topo.names.values():
        sh(["ovs-vsctl", "--timeout=3", "--if-exists", "del-br", s])
    links = sh(["ip", "-o", "link", "show"]).stdout.split("\n")
    for line in links:
        parts = line.split(": ")
        if len(parts) > 1:
            name = parts[1].split("@")[0]
            if name.rsplit("-eth", 1)[0] in topo.names.values():
                sh(["ip", "link", "del", name])


def stop_net(net):
    """net.stop(), first interrupting any host shell still inside a command."""
    for h in net.hosts:
        if h.shell and h.waiting:
            h.sendInt()
            deadline = time.time() + 2
            while h.waiting and time.time() < deadline:
                h.monitor(timeoutms=200)
            h.waiting = False
    net.stop()


class Network:
    """Mininet around a DescriptorTopo, torn down (and swept) on exit."""

    def __init__(self, t, topo, force_clean, controller=None):
        self.t, self.topo, self.net, self.procs = t, topo, None, []
        self.force_clean = force_clean
        self.controller = controller  # (ip, port) of a remote OpenFlow controller, or None

    def __enter__(self):
        left = leftovers(self.topo)
        if left and not self.force_clean:
            raise RuntimeError(
                f"already present: {', '.join(left)} (another Mininet running? "
                "stop it, or rerun with --force-clean to delete them)"
            )
        if left:
            sweep(self.topo)
        self.net = Mininet(topo=self.topo, controller=None, build=False, autoSetMacs=False)
        if self.controller:
            ip, port = self.controller
            self.net.addController("c0", controller=RemoteController, ip=ip, port=port)
        self.net.build()
        self.net.start()
        return self.net

    def __exit__(self, *exc):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=5)
        if self.net is not None:
            try:
                stop_net(self.net)
            except Exception as e:  # noqa: BLE001 - teardown must go on
                print(f"  (net.stop: {e!r}; sweeping)", file=sys.stderr)
        sweep(self.topo)
        return False


def test_compuserve(t, force_clean):
    print("== compuserve: port numbering (secure fail mode, no controller)", flush=True)
    t0 = time.monotonic()
    topo = mq.DescriptorTopo("compuserve", fail_mode="secure")
    with Network(t, topo, force_clean) as net:
        built = time.monotonic() - t0
        problems = mq.check_port_numbers(topo, net)
        n_ports = sum(len(p) for p in topo.plan.values())
        t.check(
            f"{len(topo.names)} switches, {n_ports} ports as the descriptor says",
            not problems,
            "; ".join(problems[:5]),
        )
        # The check must not be vacuous: swap two ports of one switch in a copy of the plan.
        sw = next(n for n, ports in topo.plan.items() if len(ports) >= 2)
        real = topo.plan[sw]
        a, b = real[0], real[1]
        topo.plan[sw] = [a._replace(peer=b.peer, peer_port=b.peer_port, kind=b.kind), b, *real[2:]]
        topo.plan[sw][1] = b._replace(peer=a.peer, peer_port=a.peer_port, kind=a.kind)
        wrong = mq.check_port_numbers(topo, net)
        topo.plan[sw] = real
        t.check("the check catches swapped ports", len(wrong) >= 1, wrong[0] if wrong else "")
        t.check("no flows without a controller", all(not mq.flow_counters(s) for s in net.switches))
    print(f"  compuserve: built in {built:.1f} s, total {time.monotonic() - t0:.1f} s", flush=True)


def add_normal_flows(switch):
    for flow in (
        "cookie=0x1,priority=0,actions=NORMAL",
        "cookie=0x2,priority=10,tcp,actions=NORMAL",
        "cookie=0x3,priority=10,arp,actions=NORMAL",
    ):
        r = sh([*mq.OFCTL, "add-flow", switch.name, flow])
        if r.returncode != 0:
            raise RuntimeError(f"add-flow {switch.name} {flow}: {r.stderr.strip()}")


def tcp_packets(switch):
    return sum(f["n_packets"] for f in mq.flow_counters(switch) if f["cookie"] == 2)


def test_three_path(t, force_clean, size):
    print("== three-path: ping and MPTCP over 3 disjoint paths (actions=NORMAL)", flush=True)
    t0 = time.monotonic()
    topo = mq.DescriptorTopo("three-path", fail_mode="secure")
    env = Network(t, topo, force_clean)
    with env as net:
        built = time.monotonic() - t0
        problems = mq.check_port_numbers(topo, net)
        t.check("port numbers as the descriptor says", not problems, "; ".join(problems[:5]))
        for s in net.switches:
            add_normal_flows(s)
        flows = mq.flow_counters(net.switches[0])
        t.check(
            "flow_counters parses the rules",
            sorted(f["cookie"] for f in flows) == [1, 2, 3]
            and any(f["match"].get("tcp") and f["priority"] == 10 for f in flows),
            json.dumps(flows[:1]),
        )
        server, client = net.get("server", "client")
        sip = mq.host_interfaces(server)[0][1]
        for intf, ip in mq.host_interfaces(client):
            out = client.cmd(f"timeout 8 ping -c 2 -i 0.2 -W 2 -I {intf} {sip}")
            t.check(f"ping {ip} ({intf}) -> {sip}", " 0% packet loss" in out, _loss(out))
            out = server.cmd(f"timeout 8 ping -c 2 -i 0.2 -W 2 {ip}")
            t.check(f"ping {sip} -> {ip}", " 0% packet loss" in out, _loss(out))

        mq.enable_mptcp(server)
        eps = mq.enable_mptcp(client)
        t.check("client endpoints", eps.count("subflow") == 2, " | ".join(eps.strip().splitlines()))
        before = mq.netstat_counters(server)
        tcp_before = {s.name: tcp_packets(s) for s in net.switches}
        srv = server.popen(
            [PY, BULK, "server", "--port", "5001", "--count", "1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        env.procs.append(srv)  # killed on exit if still running
        listening = srv.stdout.readline()
        t.check("bulk server listens", "listening" in listening, listening.strip())
        t1 = time.monotonic()
        out = client.cmd(f"timeout 30 {PY} {BULK} client --connect {sip} --bytes {size}")
        elapsed = time.monotonic() - t1
        server_out, server_err = srv.communicate(timeout=10)
        after = mq.netstat_counters(server)
        report = _json(out)
        sreport = _json(server_out)
        t.check(
            f"MPTCP download of {size} bytes",
            report.get("bytes") == size and sreport.get("bytes") == size,
            f"client {report.get('mbps')} Mbit/s in {report.get('duration_s')} s"
            if report
            else (out + server_err).strip()[-300:],
        )
        joins = after.get("MPJoinSynRx", 0) - before.get("MPJoinSynRx", 0)
        capable = after.get("MPCapableSYNRX", 0) - before.get("MPCapableSYNRX", 0)
        t.check(
            "server MPCapableSYNRX +1, MPJoinSynRx +2",
            capable == 1 and joins == 2,
            f"MPCapableSYNRX +{capable}, MPJoinSynRx +{joins}",
        )
        subflows = (report.get("mptcp") or {}).get("subflow_list") or []
        locals_ = sorted({(s["local"] or "").split(":")[0] for s in subflows})
        t.check(
            "client socket: 3 subflows from 3 addresses, each carried data",
            len(subflows) == 3 and len(locals_) == 3 and all(s["bytes_received"] for s in subflows),
            ", ".join(
                f"{s['local']} {s['bytes_received']} B rtt {s['rtt_us']} us" for s in subflows
            ),
        )
        tcp_delta = {s.name: tcp_packets(s) - tcp_before[s.name] for s in net.switches}
        paths = [topo.names[p] for p in ("p1", "p2", "p3")]
        t.check(
            "tcp rule of every path switch counted packets",
            all(tcp_delta[p] > 0 for p in paths),
            json.dumps(tcp_delta),
        )
        print(f"  transfer took {elapsed:.1f} s (three 2 Mbit/s paths, htb)", flush=True)
    print(f"  three-path: built in {built:.1f} s, total {time.monotonic() - t0:.1f} s", flush=True)


def _loss(out):
    for line in out.splitlines():
        if "packet loss" in line:
            return line.strip()
    return out.strip()[-200:]


def _json(text):
    for line in reversed(text.strip().splitlines()):
        try:
            return json.loads(line)
        except ValueError:
            continue
    return {}


def main():
    p = argparse.ArgumentParser(description="mpqoe Mininet self-test (root, /usr/bin/python3)")
    p.add_argument("--timeout", type=int, default=60, help="stop after this many seconds")
    p.add_argument("--bytes", type=int, default=1_500_000, help="MPTCP download size")
    p.add_argument("--force-clean", action="store_true", help="delete leftover s<N> bridges")
    p.add_argument("-v", "--verbose", action="store_true", help="Mininet info logging")
    args = p.parse_args()
    if os.geteuid() != 0:
        print("selftest: run as root", file=sys.stderr)
        return 2
    setLogLevel("info" if args.verbose else "warning")

    def on_alarm(_sig, _frame):
        raise Timeout(f"timed out after {args.timeout} s")

    def on_term(sig, _frame):
        raise KeyboardInterrupt(f"signal {sig}")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, on_term)
    signal.alarm(args.timeout)
    t = Test()
    start = time.monotonic()
    try:
        print(f"OVS: {ensure_ovs()}; datapath {mq.ovs_datapath()}; netem {mq.netem_available()}")
        test_compuserve(t, args.force_clean)
        test_three_path(t, args.force_clean, args.bytes)
    except (Timeout, KeyboardInterrupt, RuntimeError, mq.MpqoeError) as e:
        t.check("ran to the end", False, str(e))
    finally:
        signal.alarm(0)
    print(
        f"selftest: {len(t.results) - t.failed} passed, {t.failed} failed "
        f"in {time.monotonic() - start:.1f} s"
    )
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())

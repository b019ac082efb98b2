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
from mpqoe import bulk, checks, kernel, network
from mpqoe import topo as mq
from mpqoe.proc import last_json, loss_line


def test_compuserve(t, force_clean):
    print("== compuserve: port numbering (secure fail mode, no controller)", flush=True)
    t0 = time.monotonic()
    topo = mq.DescriptorTopo("compuserve", fail_mode="secure")
    with network.Network(topo, force_clean) as net:
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


def tcp_packets(switch):
    return sum(f["n_packets"] for f in mq.flow_counters(switch) if f["cookie"] == 2)


def test_three_path(t, force_clean, size):
    print("== three-path: ping and MPTCP over 3 disjoint paths (actions=NORMAL)", flush=True)
    t0 = time.monotonic()
    topo = mq.DescriptorTopo("three-path", fail_mode="secure")
    env = network.Network(topo, force_clean)
    with env as net:
        built = time.monotonic() - t0
        problems = mq.check_port_numbers(topo, net)
        t.check("port numbers as the descriptor says", not problems, "; ".join(problems[:5]))
        for s in net.switches:
            mq.add_normal_flows(s)
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
            t.check(f"ping {ip} ({intf}) -> {sip}", " 0% packet loss" in out, loss_line(out))
            out = server.cmd(f"timeout 8 ping -c 2 -i 0.2 -W 2 {ip}")
            t.check(f"ping {sip} -> {ip}", " 0% packet loss" in out, loss_line(out))

        mq.enable_mptcp(server)
        eps = mq.enable_mptcp(client)
        t.check("client endpoints", eps.count("subflow") == 2, " | ".join(eps.strip().splitlines()))
        before = kernel.netstat_counters(server)
        tcp_before = {s.name: tcp_packets(s) for s in net.switches}
        srv = server.popen(
            bulk.server_cmd(count=1),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        env.procs.append(srv)  # killed on exit if still running
        listening = srv.stdout.readline()
        t.check("bulk server listens", "listening" in listening, listening.strip())
        t1 = time.monotonic()
        out = client.cmd("timeout 30 " + " ".join(bulk.client_cmd(sip, size)))
        elapsed = time.monotonic() - t1
        server_out, server_err = srv.communicate(timeout=10)
        after = kernel.netstat_counters(server)
        report = last_json(out)
        sreport = last_json(server_out)
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
    checks.deadline(args.timeout)
    t = checks.Checks()
    try:
        print(
            f"OVS: {network.ensure_ovs()}; datapath {mq.ovs_datapath()}; "
            f"netem {mq.netem_available()}"
        )
        test_compuserve(t, args.force_clean)
        test_three_path(t, args.force_clean, args.bytes)
    except (checks.Timeout, KeyboardInterrupt, RuntimeError, mq.MpqoeError) as e:
        t.check("ran to the end", False, str(e))
    finally:
        signal.alarm(0)
    return t.summary("selftest")


if __name__ == "__main__":
    sys.exit(main())

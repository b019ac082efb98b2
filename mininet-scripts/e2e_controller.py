#!/usr/bin/python3
"""End-to-end test of the controller: `bin/mpqoe controller` drives a Mininet CompuServe network.

    /usr/bin/python3 mininet-scripts/e2e_controller.py [--seed S] [--segment-routing]
        [--discovered | --spread] [-v]

Run as root with Debian's python3. Steps:

1. `bin/mpqoe topology with-clients compuserve --clients 2 --seed S -o TMP/e2e.json`: one
   server and two clients with 3 interfaces each; the controller and Mininet read that file.
   With --spread each client's three interfaces sit on three different switches, as in the GA
   paper's own framework: `--interface-switches` with CompuServe's client switches dealt into
   three groups (interface k on a switch of group k), and the hosts get source policy routing
   (`ip rule from <address> table 100+k`, mpqoe.topo.MpqoeHost).
2. `bin/mpqoe controller --topology TMP/e2e.json --algorithm A (ga) --port P --rest R
   --stats-interval 1 --idle-timeout 30 [--segment-routing]` (free ports; 30 s so that the first
   connections are still in the controller's books when the last check reads them), its output
   in TMP/controller.log (printed when a check fails); waits until the REST port answers. Then
   `PUT /mpqoe/config {"thrDelayMs": X}` (--thr-delay, see c).
3. DescriptorTopo from the same file, OVS userspace datapath, fail mode secure (nothing moves
   without the controller), htb shaping by capacityMbps; waits until every bridge is connected
   and holds the controller's table-miss rule. With segment routing the switch-to-switch veths
   get MTU 1600 (--core-mtu): OVS's userspace datapath cannot send a full-size frame with a
   label stack through a 1500-byte port ("Message too long" in ovs-vswitchd.log).
4. MPTCP on every host (in-kernel path manager, a `subflow` endpoint per extra client
   interface); one MPTCP server; client 1 downloads, client 2 uploads (then alternating), one
   after the other (two statistics periods apart, so each selection sees a quiet network).
   With --discovered the controller gets `--servers` (the server's addresses) instead of
   `--topology`: the test waits until GET /mpqoe/topology lists exactly the descriptor's links
   (both directions discovered by LLDP), pings the server from every client interface and waits
   until every client is listed with all its addresses and the server with the one the clients
   use; from then on REST answers are renamed to the descriptor's names (mpqoe.discovered:
   switches s<dpid> are the bridges, hosts are matched by address). Link delays are LLDP's, so
   --thr-delay auto bounds hops instead (the controller's --max-hops, e2e_thresholds).
5. Checks:
   a. GET /mpqoe/topology: source descriptor+discovered (the descriptor confirmed by discovery)
      or, with --discovered, discovered; no mismatches; every link up. GET /mpqoe/connections:
      one connection per client, its subflows and their paths.
   b. The switches' own counters (`ovs-ofctl dump-flows`): for each subflow cookie (kind
      SUBFLOW) the switches with a rule of that cookie that counted packets are exactly the
      switches of its path, separately for each direction. With segment routing the cookie is
      only on the two edge switches; the label stack of each edge rule is then walked through
      the switches' label tables (table 1) and must follow the path, every rule on the way
      having counted packets.
   c. The subflows the kernel established per connection (the server's MPTCP socket) equal the
      paths the controller assigned to that client (GET /mpqoe/clients; null = no path), and
      the controller log shows each refused join. Some client must have fewer paths than
      interfaces. On a quiet CompuServe the GA gives every client three paths (seeds 1-7 all
      did), so by default (--thr-delay auto) thr_delay is set so that a client keeps some
      candidates but fewer than its interfaces, preferably exactly 2 of 3 (pick_thr_delay);
      with --thr-delay none a seed without such a client is reported and the next one tried
      (--seed-tries). With --spread (thr_delay left at the controller's default: 'auto' picks
      its threshold for candidates from one switch) instead: every subflow runs on the path the
      controller assigned to the interface it comes from, which starts at that interface's
      switch, no log line says "not a selected path", and per subflow the interface, its path
      and the packets its rules counted at the client's edge in each direction are printed.
   d. Link failure: a switch-to-switch link of one subflow goes down (`configLinkStatus`) while
      a new transfer of that client runs: the controller must show the link down, move the
      subflow to a path without it (new cookie generation), the new rules must count packets
      on exactly the new path, the old cookie must be gone and the transfer must complete;
      with --spread the new path starts at the same switch as the old one (its interface's).
   e. The controller log shows no OpenFlow error and no exception; ovs-vswitchd logged no
      "Message too long" for our bridges; no plain (shortest-path) rule carried traffic between
      the hosts, and the controller routed no packet-in between them as plain IPv4 (all of
      their traffic is MPTCP: such a packet-in is a segment of no routed subflow, e.g. data
      copied to the controller by a rule that should copy only the server's SYN/ACK); with
      --discovered, counted from after the pings that taught the controller the hosts.

   f. Set-up latency (numbers, no check): tcpdump on every client interface keeps the SYNs and
      SYN/ACKs; per subflow the time from the first SYN to its SYN/ACK as the client saw it
      (MP_CAPABLE, each MP_JOIN; the first connection after the controller started on its
      own line), and for comparison, after the checks, a first ping and a plain TCP
      connection from each client, routed by the controller's shortest-path forwarding. Beside
      them the controller's side: GET /mpqoe/stats' step timings and, per handshake
      packet-in, its log line's step times (decided, flow mods sent, barriers confirmed,
      packet-out). --setup-csv FILE also writes the client-side times, with the run's outcome.

Files: this one (options, set-up, transfers), e2e_checks.py (checks a-e), e2e_thresholds.py
(--thr-delay auto), e2e_setup_latency.py (f); shared helpers in mpqoe. In the work directory,
beside the controller log and the captures: b-c-transfers.json and d-failure.json, the REST
answers, transfer reports and flow counters that checks b-d read.

Ends with `e2e: N passed, M failed` (exit code 1 on any failure). Stops itself after --timeout
seconds. Cleans up with mpqoe.network (its bridges, veths and processes, not `mn -c`) and kills
the controller (SIGTERM, then SIGKILL).
"""

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time

from e2e_checks import E2eChecks, all_flows, plain_counts
from e2e_setup_latency import (
    HandshakeCapture,
    ping_times,
    plain_connect,
    print_controller_times,
    print_handshakes,
    print_summary,
    write_setup_csv,
)
from e2e_thresholds import pick_thr_delay, simple_path_delays, simple_path_hops
from mininet.log import setLogLevel
from mpqoe import bulk, checks, cookies, discovered, kernel, network
from mpqoe import topo as mq
from mpqoe.bulk import BulkServer, subflows_of
from mpqoe.pcap import setup_rows
from mpqoe.proc import Service, free_ports, last_json, log_offset, sh
from mpqoe.rest import Rest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MPQOE = os.path.join(ROOT, "bin", "mpqoe")


class Retry(Exception):
    """This seed gave every client as many paths as interfaces."""


def table_miss_missing(bridge):
    """None when the bridge holds the controller's table-miss rule (wait_bridges' test)."""
    kinds = {cookies.kind(f["cookie"]) for f in mq.flow_counters(bridge)}
    return None if cookies.TABLE_MISS in kinds else "no table-miss rule"


class Run(E2eChecks):
    """One seed: controller, network, transfers, checks."""

    def __init__(self, args, t, seed, last_try, t_start):
        self.args, self.t, self.seed, self.last_try = args, t, seed, last_try
        self.t_start = t_start
        self.tmp = tempfile.mkdtemp(prefix="mpqoe-e2e-")
        self.ctl = self.net = self.topo = self.server = self.capture = None
        self.setup_times = []  # section f's rows (mpqoe.pcap.setup_rows), once it ran
        self.procs = []
        self.max_hops = None  # --discovered, --thr-delay auto: the controller's --max-hops
        # What the checks of e must not count: the discovery pings' plain rules and log lines.
        self.log_from, self.plain_before = 0, {}

    # -- set-up and teardown

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        with checks.NoAlarm():  # the cleanup must not be cut short by the overall timeout
            procs = self.procs + ([self.server.proc] if self.server else [])
            procs += self.capture.procs if self.capture else []
            network.teardown(self.net, self.topo, procs)
            if self.ctl is not None:
                self.ctl.stop()
        return False

    def controller_cmd(self, descriptor, of_port, rest_port):
        a = self.args
        base = a.controller_cmd.split() if a.controller_cmd else [*a.mpqoe.split(), "controller"]
        if a.discovered:
            cmd = [*base, "--servers", ",".join(self.ips[self.server_name])]
            cmd += ["--max-hops", str(self.max_hops)] if self.max_hops else []
        else:
            cmd = [*base, "--topology", descriptor]
        cmd += ["--algorithm", self.args.algorithm]
        cmd += ["--port", str(of_port), "--rest", str(rest_port)]
        cmd += ["--stats-interval", str(a.stats_interval), "--idle-timeout", str(a.idle_timeout)]
        cmd += ["--select-at", a.select_at] if a.select_at != "syn" else []
        return cmd + (["--segment-routing"] if a.segment_routing else [])

    def setup(self):
        t, a = self.t, self.args
        t.group(f"seed {self.seed}: descriptor, controller, network (work dir {self.tmp})")
        descriptor = os.path.join(self.tmp, "e2e.json")
        gen = [*a.mpqoe.split(), "topology", "with-clients", "compuserve"]
        gen += ["--clients", str(a.clients)]
        if a.spread:
            gen += ["--interface-switches", mq.spread_groups(mq.load_descriptor("compuserve"), 3)]
        gen += ["--seed", str(self.seed), "-o", descriptor]
        r = sh(gen, timeout=600)  # the launcher builds its jar first when it is stale
        if not t.check("bin/mpqoe topology with-clients", r.returncode == 0, r.stderr.strip()):
            raise RuntimeError("no descriptor")
        self.topo = topo = mq.DescriptorTopo(
            descriptor, fail_mode="secure", shape=True, netem=False, source_routing=a.spread
        )
        network.refuse_or_sweep(topo, a.force_clean)
        spec = {h["name"]: h for h in topo.hosts_spec}
        self.clients = [h["name"] for h in topo.hosts_spec if h.get("role") == "client"]
        self.server_name = next(h["name"] for h in topo.hosts_spec if h.get("role") == "server")
        self.ips = {n: [i["ip"] for i in spec[n]["interfaces"]] for n in spec}
        self.sip = self.ips[self.server_name][0]
        if a.discovered and a.thr_delay == "auto":
            self.max_hops = self.pick_max_hops()
        of_port, rest_port = free_ports(2)
        self.ctl = Service(
            self.controller_cmd(descriptor, of_port, rest_port),
            os.path.join(self.tmp, "controller.log"),
            name="controller",
        )
        print("  $ " + " ".join(self.ctl.cmd), flush=True)
        t0 = time.monotonic()
        self.ctl.start()
        self.rest = Rest(rest_port)
        config = self.rest.wait(self.ctl, "/mpqoe/config", 90)
        t.check(
            f"controller REST answers ({time.monotonic() - t0:.1f} s)",
            config.get("segmentRouting") == a.segment_routing
            and config.get("algorithm") == self.args.algorithm
            and config.get("idleTimeoutS") == a.idle_timeout
            and config.get("maxHops") == (self.max_hops or config.get("maxHops")),
            json.dumps(config),
        )
        self.set_thr_delay(config)
        self.ovs_log = log_offset(network.OVS_LOG)
        self.net = network.start_net(topo, ("127.0.0.1", of_port))
        problems = mq.check_port_numbers(topo, self.net)
        t.check("ports as the descriptor says", not problems, "; ".join(problems[:5]))
        if a.core_mtu:
            self.set_core_mtu(a.core_mtu)
        self.bridges = network.bridges_in_order(topo)
        took = network.wait_bridges(self.bridges, self.ctl, 30, table_miss_missing)
        t.check(f"{len(self.bridges)} switches connected with the table-miss rule", True)
        print(f"  switches ready {took:.1f} s after net.start()", flush=True)
        if a.discovered:
            self.discover()

    def wait_topology(self, done, timeout):
        """GET /mpqoe/topology until done(answer); (seconds, last answer)."""
        t0, topo = time.monotonic(), {}
        while time.monotonic() - t0 < timeout:
            self.ctl.require_alive()
            topo = self.rest.get("/mpqoe/topology") or {}
            if done(topo):
                break
            time.sleep(0.2)
        return time.monotonic() - t0, topo

    def discover(self):
        """--discovered: the controller found the descriptor's links by LLDP (both directions),
        then learns the hosts from a ping of the server out of every client interface. From then
        on REST answers are renamed to the descriptor's names."""
        t, topo = self.t, self.topo
        want = {frozenset((x["a"], x["b"])) for x in topo.descriptor["links"]}
        took, got = self.wait_topology(lambda x: len(x.get("links", [])) >= len(want), 30)
        switches = discovered.names({}, topo)
        have = {
            frozenset(discovered.rename([x["a"], x["b"]], switches)) for x in got.get("links", [])
        }
        t.check(
            f"GET /mpqoe/topology: the descriptor's {len(want)} links discovered in both"
            f" directions ({took:.1f} s after the switches), source {got.get('source')}",
            have == want and got.get("source") == "discovered",
            f"{len(have)} links; missing {sorted(map(sorted, want - have))[:4]}, extra"
            f" {sorted(map(sorted, have - want))[:4]}",
        )
        bad = []
        for c in self.clients:
            host = self.net.get(c)
            intfs = [i for i, _ip in mq.host_interfaces(host)]
            bad += network.ping_from_each(host, intfs, self.sip)
        t.check(f"every client interface pings the server {self.sip}", not bad, bad)
        spec = topo.hosts_spec
        took, got = self.wait_topology(
            lambda x: not discovered.missing_hosts(x.get("hosts", []), spec, self.sip), 30
        )
        missing = discovered.missing_hosts(got.get("hosts", []), spec, self.sip)
        t.check(
            f"GET /mpqoe/topology: the {len(spec)} hosts learnt ({took:.1f} s after the pings)",
            not missing,
            f"missing {missing}; hosts {json.dumps(got.get('hosts'))[:300]}",
        )
        self.rest.names = discovered.names(got, topo)
        print(
            "  discovered names: "
            + ", ".join(f"{k}={v}" for k, v in sorted(self.rest.names.items()) if k != v),
            flush=True,
        )
        self.log_from = log_offset(self.ctl.log_path)
        self.plain_before = plain_counts(all_flows(self.bridges))

    def pick_max_hops(self):
        """--discovered with --thr-delay auto: link delays are LLDP's, so the bound that leaves
        a client fewer candidates than interfaces is on hops (the controller's --max-hops)."""
        d, hosts = self.topo.descriptor, self.topo.hosts_spec
        dst = next(h for h in hosts if h["name"] == self.server_name)["interfaces"][0]["switch"]
        hops, wanted = {}, {}
        for h in hosts:
            if h.get("role") == "client":
                hops[h["name"]] = simple_path_hops(d, h["interfaces"][0]["switch"], dst, 8)
                wanted[h["name"]] = len(h["interfaces"])
        pick = pick_thr_delay(hops, wanted)
        if pick is None:
            print("  max hops auto: no bound leaves a client short; default kept")
            return None
        bound, counts = int(pick[0]), pick[1]
        why = ", ".join(f"{c} {counts[c]} of {len(hops[c])}" for c in counts)
        print(f"  max hops auto: {bound} admits {why} candidates", flush=True)
        return bound

    def set_thr_delay(self, config):
        """--thr-delay: PUT /mpqoe/config {"thrDelayMs": ...} before any client connects."""
        a, t, d = self.args, self.t, self.topo.descriptor
        if a.thr_delay == "none" or (a.discovered and a.thr_delay == "auto"):
            return
        if a.thr_delay == "auto":
            server = next(h for h in self.topo.hosts_spec if h.get("role") == "server")
            dst = server["interfaces"][0]["switch"]
            delays, wanted = {}, {}
            for h in self.topo.hosts_spec:
                if h.get("role") == "client":
                    src = h["interfaces"][0]["switch"]
                    delays[h["name"]] = simple_path_delays(d, src, dst, config["maxHops"])
                    wanted[h["name"]] = len(h["interfaces"])
            pick = pick_thr_delay(delays, wanted)
            if pick is None:
                print("  thr_delay auto: no threshold leaves a client short; default kept")
                return
            thr, counts = pick
            why = ", ".join(
                f"{c} {counts[c]} of {len(delays[c])} candidates ({wanted[c]} interfaces)"
                for c in counts
            )
            print(f"  thr_delay auto: {thr} ms admits {why}", flush=True)
        else:
            thr = float(a.thr_delay)
        got = self.rest.put("/mpqoe/config", {"thrDelayMs": thr})
        t.check(
            f"PUT /mpqoe/config thrDelayMs={thr}",
            abs(float(got.get("thrDelayMs", -1)) - thr) < 1e-9,
            json.dumps(got),
        )

    def set_core_mtu(self, mtu):
        """MTU of every switch-to-switch veth end (label stacks make frames longer)."""
        bad = network.set_core_mtu(self.topo, mtu)
        self.t.check(f"MTU {mtu} on every switch-to-switch port", not bad, "; ".join(bad[:3]))

    # -- the test

    def run(self):
        self.setup()
        t, a, net = self.t, self.args, self.net
        server = net.get(self.server_name)
        mq.enable_mptcp(server)
        for c in self.clients:
            eps = mq.enable_mptcp(net.get(c))
            want = len(self.ips[c]) - 1
            t.check(f"{c}: {want} subflow endpoints", eps.count("subflow") == want, eps.strip())
        self.server = BulkServer(server)
        t.check("bulk server listens", "listening" in self.server.listening, self.server.listening)
        self.start_capture()

        t.group("transfers: one MPTCP connection per client")
        before = kernel.netstat_counters(server)
        self.first = {}
        for k, c in enumerate(self.clients):
            if k:
                time.sleep(2 * a.stats_interval + 0.5)  # a quiet network for the next selection
            d = "down" if k % 2 == 0 else "up"
            host = net.get(c)
            t0 = time.monotonic()
            cmd = bulk.client_cmd(self.sip, a.bytes, direction=d, timeout=30)
            out = host.cmd("timeout 60 " + " ".join(cmd))
            rep = last_json(out)
            srep = self.server.report_for(self.ips[c], set())
            self.first[c] = (rep, srep)
            t.check(
                f"{c}: MPTCP {d}load of {a.bytes} bytes",
                rep.get("bytes") == a.bytes and (srep or {}).get("bytes") == a.bytes,
                f"{rep.get('mbps')} Mbit/s, {len(subflows_of(rep))} subflow(s), "
                f"{time.monotonic() - t0:.1f} s"
                if rep.get("bytes")
                else out.strip()[-300:],
            )
        after = kernel.netstat_counters(server)
        conns = self.rest.get("/mpqoe/connections")
        assigned = self.rest.get("/mpqoe/clients")
        flows = all_flows(self.bridges)
        self.keep_evidence(
            "b-c-transfers",
            {
                "transfers": {c: {"client": r, "server": s} for c, (r, s) in self.first.items()},
                "connections": conns,
                "clients": assigned,
                "flows": flows,
            },
        )
        self.print_state(conns, assigned)

        # Is there a client with 2 or more paths, but fewer than interfaces ("a
        # client given 2 paths establishes only 2 subflows")? Else try the next seed.
        npaths = {x["client"]: self.n_paths(x) for x in assigned}
        partial = [c for c in self.clients if 0 < npaths.get(c, 0) < len(self.ips[c])]
        several = [c for c in partial if npaths[c] >= 2]
        summary = ", ".join(f"{c} {npaths.get(c, 0)}/{len(self.ips[c])}" for c in self.clients)
        if not several and not t.failed and not self.last_try and not a.spread:
            print(
                f"  seed {self.seed}: no client got 2 or more paths but fewer than interfaces"
                f" ({summary}); trying the next seed",
                flush=True,
            )
            raise Retry()
        self.check_topology()
        self.check_connections(conns)
        self.check_counters(conns, flows, "b")
        self.check_subflow_counts(conns, assigned, before, after, partial, several, summary)
        if a.spread:
            self.check_spread(conns, assigned, flows)
        self.check_failure(conns, assigned)
        self.check_log()
        self.setup_latency()

    def n_paths(self, entry):
        n = len(self.ips.get(entry["client"], []))
        return sum(1 for p in entry["paths"][:n] if p is not None)

    # -- f. set-up latency (numbers only)

    def start_capture(self):
        clients = [self.net.get(c) for c in self.clients]
        self.capture = HandshakeCapture(clients, self.tmp)
        bad = self.capture.wait_ready()
        if bad:
            print(f"  (tcpdump not ready on {'; '.join(bad)}: set-up times may miss SYNs)")

    def setup_latency(self):
        """After the checks: a first ping and a plain TCP connection per client, then the
        capture's handshakes and the numbers."""
        self.t.group("f. connection set-up latency, client side (numbers, not checked)")
        ping_ms = {}
        for c in self.clients:
            host = self.net.get(c)
            ping_ms[f"{c}"] = ping_times(host, self.sip)
            rep = last_json(plain_connect(host, self.sip))
            if rep.get("bytes") is None:
                print(f"  (plain TCP connection from {c} failed)")
        found = self.capture.stop()
        owner = {ip: c for c, ips in self.ips.items() for ip in ips}
        print_handshakes(found, owner)
        print_controller_times(self.rest.get("/mpqoe/stats"), self.ctl.log_path)
        print_summary(found, ping_ms)
        self.setup_times = setup_rows(found, owner, ping_ms)


def main():
    p = argparse.ArgumentParser(description="mpqoe controller end-to-end test (root)")
    p.add_argument("--seed", type=int, default=1, help="client placement seed (default 1)")
    p.add_argument(
        "--algorithm",
        default="ga",
        choices=["ga", "exact", "qomra", "pd-bw", "pd-delay", "fd-bw", "fd-delay", "none"],
        help="the controller's path selection (default: ga)",
    )
    p.add_argument(
        "--seed-tries",
        type=int,
        default=6,
        help="seeds to try for a client with 2+ paths, fewer than interfaces",
    )
    p.add_argument("--clients", type=int, default=2)
    p.add_argument(
        "--bytes",
        type=int,
        default=20_000_000,
        help="size of the first transfers (long enough for late joins to count)",
    )
    p.add_argument("--fail-bytes", type=int, default=20_000_000, help="failure transfer, minimum")
    p.add_argument(
        "--fail-seconds",
        type=float,
        default=5.0,
        help="size the failure transfer for this long at the first transfer's rate",
    )
    p.add_argument("--segment-routing", action="store_true", help="controller --segment-routing")
    p.add_argument(
        "--select-at",
        choices=("syn", "first-packet"),
        default="syn",
        help="controller --select-at: select a client's paths at its MP_CAPABLE SYN (default, as"
        " the GA paper) or at its first packet-in towards the server (its ARP request)",
    )
    p.add_argument(
        "--discovered",
        action="store_true",
        help="no --topology for the controller (--servers only): it routes on the network it"
        " discovered (LLDP links, hosts from pings); --thr-delay auto then bounds hops instead",
    )
    p.add_argument(
        "--spread",
        action="store_true",
        help="each client's three interfaces on three different switches (with-clients"
        " --interface-switches), source policy routing on the clients; checks that every subflow"
        " runs on the path of its own interface",
    )
    p.add_argument(
        "--core-mtu",
        type=int,
        help="MTU of the switch-to-switch veths (default: 1600 with --segment-routing, else 1500"
        " untouched); 0 leaves them alone",
    )
    p.add_argument(
        "--thr-delay",
        default="auto",
        help="thr_delay (ms) to PUT into /mpqoe/config before the transfers: a number, 'auto'"
        " (default: the largest that leaves some client fewer candidates than interfaces) or"
        " 'none' (controller default; then seeds are searched for a client with fewer paths)",
    )
    p.add_argument(
        "--setup-csv",
        metavar="FILE",
        help="also write section f's set-up times to FILE (CSV, atomically), with the variant,"
        " the seed and whether every check passed",
    )
    p.add_argument("--stats-interval", type=int, default=1)
    p.add_argument("--idle-timeout", type=int, default=30, help="controller --idle-timeout")
    p.add_argument("--mpqoe", default=MPQOE, help="the launcher (default: bin/mpqoe)")
    p.add_argument(
        "--controller-cmd",
        help="command instead of `MPQOE controller` (the same options are appended)",
    )
    checks.add_run_options(p, timeout=240, log_lines=80, log_name="controller log")
    args = p.parse_args()
    if args.core_mtu is None:
        args.core_mtu = 1600 if args.segment_routing else 0
    if args.spread and args.discovered:
        p.error(
            "--spread needs the descriptor (a discovered network cannot group a multi-homed"
            " client's addresses before its joins); leave out --discovered"
        )
    if args.spread and args.thr_delay == "auto":
        args.thr_delay = "none"

    if args.thr_delay not in ("auto", "none"):
        try:
            float(args.thr_delay)
        except ValueError:
            p.error("--thr-delay: a number, auto or none")
    if os.geteuid() != 0:
        print("e2e: run as root", file=sys.stderr)
        return 2
    setLogLevel("info" if args.verbose else "warning")
    checks.deadline(args.timeout)
    t = checks.Checks()
    run = None
    try:
        print(f"OVS: {network.ensure_ovs()}; datapath {mq.ovs_datapath()}", flush=True)
        for k in range(max(1, args.seed_tries)):
            seed = args.seed + k
            t = checks.Checks()
            run = Run(args, t, seed, k == max(1, args.seed_tries) - 1, t.start)
            try:
                with run:
                    run.run()
            except Retry:
                shutil.rmtree(run.tmp, ignore_errors=True)
                continue
            break
    except (checks.Timeout, KeyboardInterrupt, RuntimeError, mq.MpqoeError, OSError) as e:
        t.check("ran to the end", False, f"{type(e).__name__}: {e}")
    finally:
        signal.alarm(0)
    if run is not None:
        log = run.ctl.log_path if run.ctl else None
        checks.keep_or_remove(t, run.tmp, args.keep, log, args.log_lines, "controller log")
    mode = "segment routing" if args.segment_routing else "per-hop rules"
    mode += ", discovered" if args.discovered else ", descriptor"
    mode += ", interfaces on three switches" if args.spread else ""
    seed = run.seed if run else args.seed
    if args.setup_csv:
        variant = args.algorithm + (" SR" if args.segment_routing else "")
        variant += " discovered" if args.discovered else ""
        variant += " spread" if args.spread else ""
        variant += " first-packet" if args.select_at == "first-packet" else ""
        rows = run.setup_times if run else []
        write_setup_csv(args.setup_csv, rows, variant, seed, t.failed == 0 and bool(rows))
    return t.summary("e2e", f"(seed {seed}, {args.algorithm}, {mode})")


if __name__ == "__main__":
    sys.exit(main())

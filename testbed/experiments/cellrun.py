#!/usr/bin/python3
"""Guest side of the scheduler-paper experiments: runs the cell-runs of one scenario.

Run inside the testbed guest (testbed/run) as root with Debian's /usr/bin/python3 (Mininet):

    /usr/bin/python3 testbed/experiments/cellrun.py --scenario 3p-50 \
        --cells 3p-50.gr_sty.cubic,3p-50.dft.bbr --runs 1-5 [--duration 30] [--results /results]

For a scenario (mpqoe.sched_matrix) it builds the topology once, then for each run to make, in
a random order drawn per run from (--order-seed, scenario, cell, run) (mpqoe.runs.drawn_order:
a batch started again keeps the order of what is left; seed and place go into every run's
JSON as "order"): sets the scheduler and congestion control, streams one video with the probe
(vprobe.py server on `server`, client on `client`), and writes
/results/<experiment>/<cell>/run<k>.json atomically.
A run whose JSON exists with status "ok" is skipped, and so is one named by --skip CELL:K,...
(sched_run.py names the runs it holds as published already); a failed one is moved to
<cell>/failed/ and run again. Every run that is attempted leaves a JSON, "failed" with the
reason when something went wrong (network checks, subflow count, probe error, counters).

The network (documented in docs/results/scheduler-papers.md):
- DescriptorTopo with the scenario's link overrides (delay one-way, loss both ways, htb rate);
  netem must be available (it is in the guest), else the run fails.
- No controller: OVS in secure fail mode with static OpenFlow 1.3 rules `ip,nw_dst=<host ip>
  -> output:<port>` on every switch, the port being the first hop of the hop-shortest switch
  path to the switch where that address lives, ties to the lower port: the Java core's tables
  (`bin/mpqoe topology routes`), committed as topologies/routes/<topology>.json and checked
  against the port plan here. fullmesh-cross has a loop, which no subflow uses: each server
  address has one shortest path from each client switch (only ca-cb ties).
  Everything else (ARP, IPv6) is dropped: hosts get permanent neighbour entries instead.
- Hosts: source-based policy routing (one table per interface: `from <ip>` leaves by its own
  interface), so a subflow's packets and their answers stay on its path. A client address that
  cannot reach a server address from its first interface (parallel) gets a host route via the
  interface that can.
- MPTCP endpoints per scenario (matrix.Scenario.mptcp): three-path `subflow` endpoints on the
  client's 2nd and 3rd interfaces (3 subflows); full mesh `subflow fullmesh` endpoints on both
  client interfaces and a `signal` endpoint for the server's 2nd address (4 subflows);
  parallel a `signal` endpoint only (2 subflows). Limits 8/8.
- Before the runs, ping over every expected path: the minimum RTT must be within
  [2 x one-way delay - 1 ms, +40 ms] (ping's and netem's rounding); the measured RTTs go into
  every run's JSON.
- Per run: `net.mptcp.scheduler` and `net.ipv4.tcp_congestion_control` set (and read back) in
  both hosts' namespaces, `net.ipv4.tcp_no_metrics_save=1` (no cached ssthresh across runs);
  during the stream the server's established subflows (`ss`, port of this run) are sampled
  every 1.5 s: the maximum must equal the scenario's subflow count; after it the server's
  /proc/net/mpqoe_<scheduler> line of the connection must show decisions > 0.
"""

import argparse
import contextlib
import datetime
import json
import os
import re
import subprocess
import sys
import time

from mpqoe import descriptor, files, kernel, network
from mpqoe import sched_matrix as mx
from mpqoe.results import tree_sha256
from mpqoe.runs import drawn_order

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


MODULES = os.path.join(REPO, "kernel-schedulers", "build", "modules")
DEFAULT_PROBE = os.path.join(REPO, "testbed", "probe", "vprobe.py")
PY = "/usr/bin/python3"
# How long the probe server may take to listen. Python starts in a few seconds under QEMU TCG,
# but a loaded host (a Slurm node running its daemons beside the guest) has taken over 10 s;
# a server that exits instead fails the run at once.
LISTEN_TIMEOUT_S = 60
SCHEMA = "mpqoe-experiment-run/2"
BASE_PORT = 5000


class Usage(Exception):
    """Bad command line."""


class RunError(Exception):
    """A run (or the network of a batch) that failed for a stated reason."""


def now_utc():
    """Run documents carry milliseconds (runs start and end within seconds of each other)."""
    return mx.now_utc("milliseconds")


# ----------------------------------------------------------------------------------------------
# Scenario -> descriptor, routes


def scenario_descriptor(scn, mq):
    """The scenario's topology descriptor with its link overrides applied (a new dict)."""
    try:
        d = descriptor.override_links(mq.load_descriptor(scn.topology), scn.links)
    except ValueError as e:
        raise RunError(f"{scn.name}: {e}") from None
    d["name"] = f"{d['name']}:{scn.name}"
    return d


def scenario_topo(scn, mq):
    """The scenario's DescriptorTopo: overrides applied, netem on, its queue limit, no
    controller (fail mode secure, static rules)."""
    desc = scenario_descriptor(scn, mq)
    return mq.DescriptorTopo(desc, fail_mode="secure", netem=True, queue=scn.queue)


ROUTES_DIR = os.path.join(REPO, "topologies", "routes")
ROUTES_SCHEMA = "mpqoe-routes/1"


def load_routes(topology):
    """The Java core's forwarding tables of a descriptor (`bin/mpqoe topology routes NAME`),
    committed as topologies/routes/NAME.json (the guest has no Java); `make topology-check`
    fails when one is not what the core makes."""
    path = os.path.join(ROUTES_DIR, f"{topology}.json")
    doc = files.read_json(path)
    if not isinstance(doc, dict) or doc.get("schema") != ROUTES_SCHEMA:
        raise RunError(f"{path}: missing or not {ROUTES_SCHEMA} (make topology-routes)")
    if doc.get("topology") != topology:
        raise RunError(f"{path}: routes of {doc.get('topology')!r}, not {topology!r}")
    return doc


class Routing:
    """Next-hop ports per destination switch of a DescriptorTopo, from the Java core's tables
    (load_routes: the hop-shortest path, ties to the lower port), checked against the topo's
    port plan."""

    def __init__(self, topo, routes):
        self.topo = topo
        self.links = topo.descriptor["links"]
        self.host_port = {}  # ip -> (switch, port, host name, interface index)
        link_port = {}  # (switch, port) -> (peer switch, link index)
        for sw, ports in topo.plan.items():
            for p in ports:
                if p.kind == "link":
                    link_port[sw, p.port] = (p.peer, p.index)
                else:
                    itf = topo.hosts_spec[p.index]["interfaces"][p.peer_port]
                    self.host_port[itf["ip"]] = (sw, p.port, p.peer, p.peer_port)
        self.hops = self._hops(routes, link_port)  # (switch, target) -> (port, peer, link index)

    def _hops(self, routes, link_port):
        tables = routes.get("routes")
        where = f"routes of {routes.get('topology')}"
        if not isinstance(tables, dict) or set(tables) != set(self.topo.plan):
            raise RunError(f"{where}: switches differ from the descriptor's (make topology-routes)")
        hops = {}
        for sw, table in tables.items():
            for target, hop in (table or {}).items():
                want = (hop.get("port"), hop.get("next"), hop.get("link"))
                if target == sw or target not in tables or link_port.get((sw, want[0])) != want[1:]:
                    raise RunError(
                        f"{where}: {sw} -> {target} {hop} is not a link port of {sw} in the "
                        "descriptor's port plan (make topology-routes)"
                    )
                hops[sw, target] = want
        return hops

    def next_hop(self, sw, target):
        """(port, peer, link index) from sw towards target, or None (same switch, unreached)."""
        return self.hops.get((sw, target))

    def reachable(self, ip_a, ip_b):
        a, b = self.host_port[ip_a][0], self.host_port[ip_b][0]
        return a == b or (a, b) in self.hops

    def flows(self):
        """{switch: [flow text]}: one rule per host address, by IP destination."""
        out = {sw: [] for sw in self.topo.plan}
        for ip, (tsw, tport, _h, _i) in sorted(self.host_port.items()):
            for sw in self.topo.plan:
                if sw == tsw:
                    port = tport
                elif (sw, tsw) in self.hops:
                    port = self.hops[sw, tsw][0]
                else:
                    continue
                out[sw].append(f"cookie=0x10,priority=100,ip,nw_dst={ip},actions=output:{port}")
        return out

    def one_way_ms(self, ip_from, ip_to):
        """Sum of the delays along the routed path (links and both host interfaces)."""
        a, _pa, ha, ia = self.host_port[ip_from]
        b, _pb, hb, ib = self.host_port[ip_to]
        hosts = {h["name"]: h for h in self.topo.hosts_spec}
        total = float(hosts[ha]["interfaces"][ia].get("delayMs") or 0)
        total += float(hosts[hb]["interfaces"][ib].get("delayMs") or 0)
        sw = a
        while sw != b:
            _port, peer, idx = self.next_hop(sw, b)
            total += float(self.links[idx].get("delayMs") or 0)
            sw = peer
        return total


# ----------------------------------------------------------------------------------------------
# Network set-up


def host_cmd(host, cmd):
    """host.cmd that fails loudly: returns output, raises RunError when the command fails."""
    out = host.cmd(f"{cmd}; echo __rc=$?")
    m = re.search(r"__rc=(\d+)\s*$", out)
    if not m or m.group(1) != "0":
        raise RunError(f"{host.name}: {cmd}: {out.strip()[-300:]}")
    return out[: m.start()]


def install_flows(net, topo, routing, mq):
    for sw, flows in routing.flows().items():
        name = topo.names[sw]
        r = subprocess.run(
            [*mq.OFCTL, "add-flows", name, "-"],
            input="\n".join(flows) + "\n",
            capture_output=True,
            text=True,
            timeout=15,
        )
        if r.returncode != 0:
            raise RunError(f"ovs-ofctl add-flows {name}: {r.stderr.strip()}")


def configure_hosts(net, topo, routing, mq):
    """Policy routing per source address, permanent neighbours, host routes (see docstring)."""
    all_ifs = [
        (h["name"], i, itf) for h in topo.hosts_spec for i, itf in enumerate(h["interfaces"])
    ]
    for h in topo.hosts_spec:
        host = net.get(h["name"])
        intfs = mq.host_interfaces(host)
        for i, (intf, ip) in enumerate(intfs):
            table = 100 + i
            host_cmd(host, f"ip rule add from {ip} table {table} pref {1000 + i}")
            host_cmd(host, f"ip route replace 10.0.0.0/8 dev {intf} src {ip} table {table}")
            for other, _j, itf in all_ifs:
                if other != h["name"]:
                    ip_o, mac = itf["ip"], itf["mac"]
                    host_cmd(host, f"ip neigh replace {ip_o} lladdr {mac} dev {intf} nud permanent")
        first_ip = intfs[0][1]
        for other, _j, itf in all_ifs:
            if other == h["name"] or routing.reachable(first_ip, itf["ip"]):
                continue
            via = next(((n, ip) for n, ip in intfs if routing.reachable(ip, itf["ip"])), None)
            if via:
                host_cmd(host, f"ip route replace {itf['ip']}/32 dev {via[0]} src {via[1]}")
        host_cmd(host, "sysctl -qw net.ipv4.tcp_no_metrics_save=1")


def configure_mptcp(scn, server, client, mq):
    for host in (server, client):
        host_cmd(host, "sysctl -qw net.mptcp.enabled=1")
        host_cmd(host, "ip mptcp limits set subflow 8 add_addr_accepted 8")
        host_cmd(host, "ip mptcp endpoint flush")
    cintfs, sintfs = mq.host_interfaces(client), mq.host_interfaces(server)
    if scn.mptcp == "subflow":
        for intf, ip in cintfs[1:]:
            host_cmd(client, f"ip mptcp endpoint add {ip} dev {intf} subflow")
    elif scn.mptcp == "fullmesh":
        for intf, ip in cintfs:
            host_cmd(client, f"ip mptcp endpoint add {ip} dev {intf} subflow fullmesh")
    if scn.mptcp in ("fullmesh", "signal"):
        for intf, ip in sintfs[1:]:
            host_cmd(server, f"ip mptcp endpoint add {ip} dev {intf} signal")
    return {
        "server": server.cmd("ip mptcp endpoint show").strip().splitlines(),
        "client": client.cmd("ip mptcp endpoint show").strip().splitlines(),
    }


def expected_paths(scn, routing, server, client, mq):
    """[(client intf, client ip, server ip)] over which the scenario's subflows run."""
    sips = [ip for _i, ip in mq.host_interfaces(server)]
    if scn.mptcp == "subflow":
        sips = sips[:1]
    out = []
    for intf, cip in mq.host_interfaces(client):
        for sip in sips:
            if routing.reachable(cip, sip):
                if scn.mptcp == "signal" and any(s == sip for _a, _b, s in out):
                    continue
                out.append((intf, cip, sip))
    return out


_RTT = re.compile(r"= ([\d.]+)/([\d.]+)/([\d.]+)")


def check_paths(paths, routing, client):
    """Ping every path; min RTT must lie in [2 x one-way - 1 ms, +40 ms]. Returns the
    measurements."""
    rows, bad = [], []
    for intf, cip, sip in paths:
        want = 2 * routing.one_way_ms(cip, sip)
        out = client.cmd(f"timeout 20 ping -n -c 5 -i 0.3 -W 3 -I {intf} {sip}")
        m = _RTT.search(out)
        row = {"client_if": intf, "client_ip": cip, "server_ip": sip, "expected_ms": want}
        if m:
            row.update(min_ms=float(m.group(1)), avg_ms=float(m.group(2)))
        rows.append(row)
        if not m or not (want - 1 <= row["min_ms"] <= want + 40):
            got = row.get("min_ms")
            bad.append(f"{cip}->{sip}: RTT {got} ms, expected {want - 1:g}..{want + 40:g}")
    if bad:
        raise RunError("path check: " + "; ".join(bad))
    return rows


_NETEM_QDISC = re.compile(r"qdisc netem \S+ .*?\blimit (\d+)")


def check_queues(net, scn):
    """The netem queue limits of every node's qdiscs must all be the scenario's; returns them."""
    want = scn.queue or mx.NETEM_LIMIT
    seen = set()
    for node in net.hosts + net.switches[:1]:  # the switches share the root namespace
        seen.update(int(m) for m in _NETEM_QDISC.findall(node.cmd("tc qdisc show")))
    if seen != {want}:
        raise RunError(f"netem queue limits {sorted(seen)}, expected [{want}]")
    return sorted(seen)


def load_modules(schedulers, ccs=()):
    try:
        kernel.load_testbed_modules(schedulers, MODULES, ccs)
    except RuntimeError as e:
        raise RunError(str(e)) from None


# ----------------------------------------------------------------------------------------------
# One run


def proc_line(host, sched, port):
    """The /proc/net/mpqoe_<sched> line (as a dict) of the connection on local port `port`,
    or None, and the file's first line (in a list; the reason when it is malformed)."""
    try:
        header, conns, text = kernel.mpqoe_connections(host, sched)
    except ValueError as e:
        return None, [str(e)]
    return kernel.find_connection(conns, local_port=port), text.strip().splitlines()[:1]


def coupled_problem(cc, line):
    """Why a run of coupled control `cc` did not show it coupling its subflows (its
    /proc/net/mpqoe_<cc> line, a dict, or None), or None when it did: some acknowledgments in
    congestion avoidance were handled with two or more usable subflows (`acks` less those in
    slow start and those handled as Reno with one usable subflow; docs/coupled-cc.md)."""
    if not line:
        return f"no /proc/net/mpqoe_{cc} line for the connection"
    try:
        coupled = int(line["acks"]) - int(line["ss_acks"]) - int(line["reno_acks"])
    except (KeyError, ValueError):
        return f"/proc/net/mpqoe_{cc}: no acks, ss_acks and reno_acks counts in {line}"
    if coupled <= 0:
        return f"mpqoe_{cc} coupled no acknowledgment (acks, ss_acks, reno_acks: " + (
            f"{line['acks']}, {line['ss_acks']}, {line['reno_acks']})"
        )
    return None


def established_subflows(host, port):
    out = host.cmd(f"ss -tnH state established '( sport = :{port} )'")
    return sorted({" ".join(line.split()[-2:]) for line in out.splitlines() if line.strip()})


def sysctl(host, name):
    return host.cmd(f"sysctl -n {name}").strip()


def stream(args, scn, cell, port, server, client, mq, work):
    """One probe stream; returns the run's facts (raises RunError with the facts attached)."""
    facts = {}
    sip = mq.host_interfaces(server)[0][1]
    for host in (server, client):
        host_cmd(host, f"sysctl -qw net.mptcp.scheduler={cell.scheduler}")
        host_cmd(host, f"sysctl -qw net.ipv4.tcp_congestion_control={cell.cc}")
        host.cmd("ip tcp_metrics flush all 2>/dev/null")
    facts["sysctl"] = {
        h.name: {
            "net.mptcp.scheduler": sysctl(h, "net.mptcp.scheduler"),
            "net.ipv4.tcp_congestion_control": sysctl(h, "net.ipv4.tcp_congestion_control"),
        }
        for h in (server, client)
    }
    for h, vals in facts["sysctl"].items():
        if vals["net.mptcp.scheduler"] != cell.scheduler or (
            vals["net.ipv4.tcp_congestion_control"] != cell.cc
        ):
            raise RunError(f"{h}: sysctls read back {vals}")
    before = kernel.netstat_counters(server)
    out_json = os.path.join(work, "probe.json")
    if os.path.exists(out_json):
        os.unlink(out_json)
    limit = args.duration + 90  # the probe's idle limit: no data (or no client) for this long
    wall = mx.run_limit_s(args.duration)
    over = None
    srv_log = open(os.path.join(work, "server.log"), "w")  # noqa: SIM115 - closed below
    cli_log = open(os.path.join(work, "client.log"), "w")  # noqa: SIM115
    srv = server.popen(
        [PY, args.probe, "server", "--port", str(port), "--bitrate", str(mx.BITRATE)]
        + ["--fps", str(mx.FPS), "--duration", str(args.duration), "--timeout", str(limit)],
        stdout=srv_log,
        stderr=subprocess.STDOUT,
    )
    cli = None
    try:
        deadline = time.monotonic() + LISTEN_TIMEOUT_S
        while not server.cmd(f"ss -ltnH '( sport = :{port} )'").strip():
            if srv.poll() is not None or time.monotonic() > deadline:
                raise RunError(
                    f"probe server not listening on {port} after {LISTEN_TIMEOUT_S} s "
                    f"(exit {srv.poll()})",
                    facts,  # with the probe's log tails (below), also on this failure
                )
            time.sleep(0.1)
        t0 = time.monotonic()
        cli = client.popen(
            [PY, args.probe, "client", "--connect", f"{sip}:{port}", "--out", out_json]
            + ["--label", f"{cell.name}/run", "--timeout", str(limit)],
            stdout=cli_log,
            stderr=subprocess.STDOUT,
        )
        samples = []
        while cli.poll() is None:
            if time.monotonic() - t0 > wall:
                # SIGTERM: the client writes what it measured so far, then exits 1
                over = f"the stream still played after {wall:g} s (twice the video plus 90 s)"
                cli.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    cli.wait(timeout=15)
                break
            time.sleep(1.5)
            sf = established_subflows(server, port)
            samples.append([round(time.monotonic() - t0, 1), len(sf)])
            facts["subflow_pairs"] = sorted(set(facts.get("subflow_pairs", [])) | set(sf))
        facts["subflow_samples"] = samples
        facts["subflows_max"] = max((n for _t, n in samples), default=0)
        facts["stream_wall_s"] = round(time.monotonic() - t0, 2)
        try:
            srv.wait(timeout=20)
        except subprocess.TimeoutExpired as e:
            raise RunError("probe server did not exit 20 s after the client", facts) from e
    finally:
        for p in (cli, srv):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait(timeout=5)
        srv_log.close()
        cli_log.close()
        for name in ("client", "server"):  # what the probe printed, whatever ended the stream
            with open(os.path.join(work, f"{name}.log"), errors="replace") as f:
                facts[f"probe_{name}_log_tail"] = f.read()[-1500:]
    facts["probe_exit"] = {"client": cli.returncode, "server": srv.returncode}
    after = kernel.netstat_counters(server)
    facts["server_mptcp_counters"] = kernel.counter_deltas(before, after)
    facts["probe"] = files.read_json(out_json)
    line, header = proc_line(server, cell.scheduler, port)
    facts["scheduler_proc"] = line
    facts["scheduler_proc_header"] = header
    problems = [over] if over else []
    if cell.cc in mx.COUPLED_CCS:
        # the sender's side: the coupled control acts on the data the server sends
        facts["cc_proc"], facts["cc_proc_header"] = proc_line(server, cell.cc, port)
        why = coupled_problem(cell.cc, facts["cc_proc"])
        if why:
            problems.append(why)
    if cli.returncode != 0 or srv.returncode != 0:
        problems.append(f"probe exit codes client {cli.returncode} server {srv.returncode}")
    probe = facts["probe"]
    if not probe:
        problems.append("no probe JSON")
    elif not probe.get("complete"):
        problems.append(f"probe incomplete: {probe.get('error')}")
    if facts["subflows_max"] != scn.subflows:
        problems.append(f"{facts['subflows_max']} subflows established, expected {scn.subflows}")
    if not line or int(line.get("decisions", 0)) <= 0:
        problems.append(f"no /proc/net/mpqoe_{cell.scheduler} line with decisions > 0")
    if problems:
        raise RunError("; ".join(problems), facts)
    return facts


# ----------------------------------------------------------------------------------------------
# Batch


def parse_runs(text):
    runs = set()
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise Usage(f"--runs: bad item {part!r} (want e.g. 1-5 or 1,3)")
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        if a < 1 or b < a:
            raise Usage(f"--runs: bad range {part!r}")
        runs.update(range(a, b + 1))
    return sorted(runs)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scenario", required=True, help=", ".join(mx.SCENARIOS))
    p.add_argument("--cells", required=True, help="comma-separated cell names of that scenario")
    p.add_argument("--runs", default="1-5", help="run indices, e.g. 1-5 or 2,4 (default 1-5)")
    p.add_argument("--duration", type=float, default=30.0, help="video length in s (default 30)")
    p.add_argument("--results", default="/results", help="results root (default /results)")
    p.add_argument("--probe", default=DEFAULT_PROBE, help="vprobe.py to use")
    p.add_argument("--settle", type=float, default=1.0, help="pause between runs, s (default 1)")
    p.add_argument(
        "--skip",
        dest="skip_text",
        default="",
        help="runs not to make, CELL:K,... (made already, e.g. published)",
    )
    p.add_argument(
        "--code-version", default="unknown", help="the repository's version (sched_run.py gives it)"
    )
    p.add_argument(
        "--order-seed",
        type=int,
        default=mx.ORDER_SEED,
        help=f"the seed of the runs' random order (default {mx.ORDER_SEED})",
    )
    a = p.parse_args(argv)
    if a.scenario not in mx.SCENARIOS:
        raise Usage(f"--scenario: unknown {a.scenario!r} (one of {', '.join(mx.SCENARIOS)})")
    a.scn = mx.SCENARIOS[a.scenario]
    a.cell_list = []
    for name in a.cells.split(","):
        try:
            c = mx.parse_cell(name.strip())
        except ValueError as e:
            raise Usage(f"--cells: {e}") from e
        if c.scenario != a.scenario:
            raise Usage(f"--cells: {c.name} is not a cell of scenario {a.scenario}")
        a.cell_list.append(c)
    a.run_list = parse_runs(a.runs)
    a.skip, names = set(), {c.name for c in a.cell_list}
    for item in filter(None, (x.strip() for x in a.skip_text.split(","))):
        name, _, k = item.rpartition(":")
        if name not in names or not k.isdigit():
            raise Usage(f"--skip: {item!r} is not CELL:K with CELL one of --cells")
        a.skip.add((name, int(k)))
    if not (1 <= a.duration <= 7200):
        raise Usage("--duration: want 1..7200 s")
    if not os.path.isfile(a.probe):
        raise Usage(f"--probe: no file {a.probe}")
    # the probe's every source file: a change in its player or wire format changes the hash
    probe_dir = os.path.dirname(os.path.abspath(a.probe))
    a.probe_sha256 = tree_sha256(
        sorted(
            os.path.join(probe_dir, f)
            for f in os.listdir(probe_dir)
            if f.startswith("vprobe") and f.endswith(".py")
        )
    )
    return a


def base_doc(args, cell, k):
    scn = args.scn
    return {
        "schema": SCHEMA,
        "status": "failed",
        "error": None,
        "experiment": cell.experiment,
        "cell": cell.name,
        "scenario": scn.name,
        "scheduler": cell.scheduler,
        "cc": cell.cc,
        "run": k,
        "seed": None,
        "seed_note": "nothing to seed: the probe is deterministic and netem's loss draws use the "
        "kernel's prandom, which cannot be seeded; runs differ by that and by timing",
        "kernel": os.uname().release,
        "config": {
            **mx.run_config(scn, args.duration),
            "probe": os.path.relpath(args.probe, REPO),
            "probe_sha256": args.probe_sha256,
        },
        "code_version": args.code_version,
        # the scheduler's module and the coupled congestion control's (None for the kernel's
        # own cubic and bbr), as loaded
        **mx.module_builds(MODULES, cell),
    }


def pending(args):
    """[(cell, k, path, old document)] of the runs to make, in the batch's random order."""
    todo = []
    for k in args.run_list:
        for cell in args.cell_list:
            if (cell.name, k) in args.skip:
                continue
            path = mx.run_path(args.results, cell, k)
            doc = files.read_json(path)
            if doc and doc.get("status") == "ok":
                continue
            todo.append((cell, k, path, doc))
    return drawn_order(todo, args.order_seed, args.scenario, lambda t: (t[0].name, t[1]))


def retire(path, doc):
    """Keep an earlier failed attempt under <cell>/failed/ before running again."""
    if doc is None and not os.path.exists(path):
        return
    d = os.path.join(os.path.dirname(path), "failed")
    os.makedirs(d, exist_ok=True)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%S")
    os.replace(path, os.path.join(d, f"{os.path.basename(path)[:-5]}.{stamp}.json"))


def main(argv):
    try:
        args = parse_args(argv)
    except Usage as e:
        print(f"cellrun.py: {e}", file=sys.stderr)
        return 2
    todo = pending(args)
    print(f"cellrun: {args.scenario}: {len(todo)} run(s) to do", flush=True)
    if not todo:
        return 0
    from mininet.log import setLogLevel
    from mpqoe import topo as mq

    setLogLevel("warning")
    netinfo, fatal, failures = {}, None, 0
    topo = None
    t_start = time.monotonic()

    def phase(what):
        print(f"cellrun: {what} at {time.monotonic() - t_start:.1f} s", flush=True)

    try:
        load_modules(
            sorted({c.scheduler for c in args.cell_list}),
            sorted({c.cc for c in args.cell_list} & set(mx.COUPLED_CCS)),
        )
        phase("modules loaded")
        network.ensure_ovs()
        phase("ovs running")
        topo = scenario_topo(args.scn, mq)
        routing = Routing(topo, load_routes(args.scn.topology))
    except (RunError, RuntimeError, OSError, mq.MpqoeError, subprocess.SubprocessError) as e:
        fatal = f"set-up: {e}"
    if fatal is None:
        env = network.Network(topo, force_clean=True)
        try:
            with env as net:
                phase("network started")
                t_net = time.monotonic()
                server, client = net.get("server", "client")
                install_flows(net, topo, routing, mq)
                configure_hosts(net, topo, routing, mq)
                netinfo["endpoints"] = configure_mptcp(args.scn, server, client, mq)
                netinfo["netem_limits"] = check_queues(net, args.scn)
                phase("flows, routes, endpoints")
                paths = expected_paths(args.scn, routing, server, client, mq)
                if len(paths) != args.scn.subflows:
                    raise RunError(f"{len(paths)} reachable paths, expected {args.scn.subflows}")
                netinfo["path_rtt_ms"] = check_paths(paths, routing, client)
                netinfo["built_utc"] = now_utc()
                netinfo["setup_s"] = round(time.monotonic() - t_net, 1)
                print(f"cellrun: network ready: {json.dumps(netinfo['path_rtt_ms'])}", flush=True)
                work = "/tmp/cellrun"
                os.makedirs(work, exist_ok=True)
                for n, (cell, k, path, old) in enumerate(todo):
                    failures += run_one(args, cell, k, path, old, n, server, client, mq, netinfo)
                    time.sleep(args.settle)
                todo = []
                phase("runs done")
        except (RunError, RuntimeError, OSError, mq.MpqoeError, subprocess.SubprocessError) as e:
            fatal = f"network: {e}"
    phase("network stopped")
    if fatal:
        print(f"cellrun: {fatal}", file=sys.stderr, flush=True)
        for cell, k, path, old in todo:
            retire(path, old)
            doc = base_doc(args, cell, k)
            doc.update(error=fatal, started_utc=now_utc(), ended_utc=now_utc(), network=netinfo)
            files.write_json(path, doc)
        return 1
    return 1 if failures else 0


def run_one(args, cell, k, path, old, n, server, client, mq, netinfo):
    """One cell-run; writes its JSON; returns 1 when it failed."""
    retire(path, old)
    doc = base_doc(args, cell, k)
    doc["network"] = netinfo
    doc["order"] = {"seed": args.order_seed, "position": n}  # its place in this batch's order
    doc["started_utc"] = now_utc()
    t0 = time.monotonic()
    port = BASE_PORT + n
    try:
        facts = stream(args, args.scn, cell, port, server, client, mq, "/tmp/cellrun")
        doc.update(facts)
        doc["status"] = "ok"
    except RunError as e:
        doc["error"] = str(e.args[0])
        if len(e.args) > 1:
            doc.update(e.args[1])
    except Exception as e:  # noqa: BLE001 - any failure is recorded in the run's JSON
        doc["error"] = f"{type(e).__name__}: {e}"
    doc["ended_utc"] = now_utc()
    doc["wall_s"] = round(time.monotonic() - t0, 2)
    files.write_json(path, doc)
    p = doc.get("probe") or {}
    sp = doc.get("scheduler_proc") or {}
    print(
        f"cellrun: {cell.name} run{k}: {doc['status']} {doc['wall_s']} s"
        f" subflows={doc.get('subflows_max')} switches={sp.get('switches')}"
        f" discards={p.get('picture_discards')}"
        f" underflows={(p.get('buffer_underflows') or {}).get('count')}"
        + (f" error={doc['error']}" if doc["error"] else ""),
        flush=True,
    )
    return 0 if doc["status"] == "ok" else 1


if __name__ == "__main__":
    os.umask(0o022)
    sys.exit(main(sys.argv[1:]))

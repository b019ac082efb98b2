#!/usr/bin/python3
"""Real check of the Floodlight adapter: Floodlight with mpqoe drives a Mininet network and
routes the subflows of a real MPTCP transfer.

    floodlight-module/floodlight/run-it.sh FLOODLIGHT_JAR [options]     (as root)
    /usr/bin/python3 floodlight-module/floodlight/floodlight_it.py \\
        --floodlight-jar FLOODLIGHT_JAR --module-jar target/mpqoe-floodlight.jar [options]

The Floodlight jar is the user's (this script never builds Floodlight). Steps:

1. `bin/mpqoe topology with-clients compuserve --clients 1 --seed S -o TMP/it.json`: the
   descriptor Mininet builds; DPIDs shifted by 100 and hosts renamed fl-* so that another
   Mininet of CompuServe (s1..s11) can run beside. Floodlight gets it as the module parameter
   `topology` (an overlay on what it discovers), or, with --discovered, gets no descriptor at all
   (only `servers`): the topology is what Floodlight discovered by itself.
   With --spread the client's three interfaces sit on three different switches (with-clients
   --interface-switches, CompuServe's client switches dealt into three groups) with source policy
   routing, as in the GA paper's own framework, and each subflow must run on the path assigned to
   its own interface, from that interface's switch.
2. Floodlight (mpqoe.floodlight.Floodlight): `java -cp FLOODLIGHT_JAR:MODULE_JAR
   net.floodlightcontroller.core.Main -cf TMP/mpqoe-floodlight.properties`, the properties being
   the module's example file (src/main/resources/mpqoe-floodlight.properties, taken from the
   module jar) with free local ports, this descriptor and idleTimeoutS=30; log in
   TMP/floodlight.log.
3. Mininet (DescriptorTopo: OVS userspace datapath, OpenFlow 1.3, fail mode secure, htb shaping
   by capacityMbps) with Floodlight as remote controller; waits for every switch, mpqoe's
   delivery rules (with a descriptor) and Floodlight's LLDP links, and for GET
   /wm/mpqoe/topology to list them (source, no mismatches with a descriptor). Then
   mpqoe.floodlight.prepare_network: pings the server from every client interface (ARP and
   ICMP are Forwarding's); if that fails, POST /wm/routing/paths/force-recompute/json once
   (Floodlight's stale broadcast ports, docs/floodlight.md) and pings again. Without a
   descriptor, the hosts are what the pings taught Floodlight's device manager: waits until
   mpqoe's topology lists the client with every interface and the server.
4. MPTCP on both hosts, one download (mininet-scripts/mptcp_bulk.py); /wm/mpqoe/topology is
   polled during it.
5. Checks: GET /wm/mpqoe/connections shows the connection and its subflows; for every subflow
   cookie the switches whose rule of that cookie counted packets (ovs-ofctl dump-flows) are
   exactly its path, both directions; the kernel's established subflows = the paths mpqoe
   assigned (GET /wm/mpqoe/clients); Forwarding installed no flow for the MPTCP port; link
   loads from Floodlight's statistics reached /wm/mpqoe/topology; mpqoe sits between
   devicemanager and forwarding in the PACKET_IN chain; no switch refused an mpqoe rule.

With --delays (module parameter useLldpLatency=true), step 3 also waits until GET
/wm/mpqoe/topology says every link's LLDP delay is known (`delayKnown`; about two minutes, as
Floodlight's one-way probes come every 15 s per port), prints the delays, checks that each is
within 2 ms of 0 (the links have no netem) and that every switch's reflect rule reflected probes.

With --capture, the work directory also gets diagnostics of the transfer: a tcpdump of the MPTCP
port on every host interface (the first 3000 packets), the client's `ss -tinM` 5 s in, and both
hosts' `nstat` after it (the non-zero MPTCP counters, TCP resets and retransmissions are
printed). A failed run keeps its work directory.

Ends with `floodlight-it: N passed, M failed` (exit code 1 on any failure). Cleans up its
bridges, veths and processes (mpqoe.network, never `mn -c`) and stops Floodlight.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

from mininet.log import setLogLevel
from mpqoe import bulk, checks, cookies, discovered, floodlight, network
from mpqoe import topo as mq
from mpqoe.flows import direction, edge_walk, fmt_path, link_pairs
from mpqoe.proc import free_ports, last_json, sh
from mpqoe.rest import ERRORS

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

MPQOE = os.path.join(ROOT, "bin", "mpqoe")


class Run:
    def __init__(self, args, t):
        self.args, self.t = args, t
        self.tmp = tempfile.mkdtemp(prefix="mpqoe-fl-it-")
        self.fl = self.net = self.topo = None
        self.procs = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        with checks.NoAlarm():
            network.teardown(self.net, self.topo, self.procs)
            if self.fl is not None:
                self.fl.__exit__(None, None, None)
        return False

    # -- set-up

    def isolate(self, path):
        """Own bridge and host names, so that another Mininet of the same topology on this
        machine (e.g. the standalone e2e test: s1..s11, c1, server) is left alone: DPIDs
        shifted by --dpid-offset (bridges s101...), host names prefixed by --host-prefix."""
        a = self.args
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        for k, sw in enumerate(d["switches"]):
            sw["dpid"] = int(sw.get("dpid") or k + 1) + a.dpid_offset
        for h in d["hosts"]:
            h["name"] = a.host_prefix + h["name"]
        with open(path, "w", encoding="utf-8") as f:
            json.dump(d, f, indent=2)

    def setup(self):
        t, a = self.t, self.args
        t.group(f"descriptor, Floodlight with mpqoe, network (work dir {self.tmp})")
        descriptor = os.path.join(self.tmp, "it.json")
        gen = [MPQOE, "topology", "with-clients", a.topology, "--clients", "1"]
        if a.spread:
            groups = mq.spread_groups(mq.load_descriptor(a.topology), 3)
            gen += ["--interface-switches", groups]
        r = sh([*gen, "--seed", str(a.seed), "-o", descriptor], timeout=600)
        if not t.check("bin/mpqoe topology with-clients", r.returncode == 0, r.stderr.strip()):
            raise RuntimeError("no descriptor")
        self.isolate(descriptor)
        self.topo = topo = mq.DescriptorTopo(
            descriptor, fail_mode="secure", shape=True, netem=False, source_routing=a.spread
        )
        network.refuse_or_sweep(topo, a.force_clean)
        of_port, rest_port = free_ports(2)
        settings = {"idleTimeoutS": 30, "segmentRouting": a.segment_routing}
        if a.discovered:
            settings["topology"] = ""  # no overlay: only what Floodlight discovers
        if a.delays:
            settings["useLldpLatency"] = True  # the links' delays are the LLDP estimates
        fl = floodlight.Floodlight(
            descriptor,
            a.algorithm,
            of_port,
            rest_port,
            os.path.join(self.tmp, "floodlight.log"),
            a.floodlight_jar,
            a.module_jar,
            settings,
        )
        print("  $ " + " ".join(fl.cmd), flush=True)
        t0 = time.monotonic()
        self.fl = fl  # stopped by __exit__ even when it does not start
        fl.__enter__()
        self.rest = fl.rest
        config = fl.get("config")
        t.check(
            f"GET /wm/mpqoe/config answers ({time.monotonic() - t0:.1f} s after start)",
            config.get("algorithm") == a.algorithm
            and config.get("idleTimeoutS") == 30
            and config.get("segmentRouting") == a.segment_routing,
            json.dumps(config),
        )
        loaded = self.rest.get("/wm/core/module/loaded/json")
        t.check("Floodlight lists the module as loaded", floodlight.MODULE in json.dumps(loaded))

        self.net = network.start_net(topo, ("127.0.0.1", of_port))
        problems = mq.check_port_numbers(topo, self.net)
        t.check("ports as the descriptor says", not problems, "; ".join(problems[:5]))
        if a.segment_routing:
            # Room for the label stack: the userspace datapath cannot send a 1500-byte IP packet
            # plus labels through a 1500-byte veth ("Message too long").
            bad = network.set_core_mtu(topo, 1600)
            t.check("MTU 1600 on the switch-to-switch veths", not bad, bad)
        self.bridges = network.bridges_in_order(topo)
        with_hosts = sorted(
            {topo.names[i["switch"]] for h in topo.hosts_spec for i in h["interfaces"]}
        )
        # Without a descriptor mpqoe knows no host before the pings: no delivery rule yet.
        took = self.wait_switches([] if a.discovered else with_hosts, 60)
        t.check(
            f"{len(self.bridges)} switches connected"
            + ("" if a.discovered else f", mpqoe's delivery rules on {len(with_hosts)}")
            + f" ({took:.1f} s)",
            True,
        )
        n_links = len(topo.descriptor["links"])
        found = self.wait_links(n_links, 60)
        t.check(f"Floodlight discovered the {n_links} links by LLDP", found >= n_links, found)
        took, mpqoe = floodlight.wait_topology(self.rest, n_links, 30)
        source = "discovered" if a.discovered else "descriptor+discovered"
        t.check(
            f"GET /wm/mpqoe/topology: source {source}, {n_links} links ({took:.1f} s)",
            mpqoe.get("source") == source and len(mpqoe.get("links", [])) == n_links,
            f"source {mpqoe.get('source')}, {len(mpqoe.get('links', []))} links",
        )
        if not a.discovered:
            t.check(
                "the network matches the descriptor: no mismatches",
                mpqoe.get("mismatches") == [],
                json.dumps(mpqoe.get("mismatches"))[:400],
            )
        took, missing = self.wait_stats(30)
        t.check(
            f"Floodlight's port statistics cover every link port ({took:.1f} s)",
            not missing,
            f"missing {missing[:5]}",
        )
        if a.delays:
            self.check_delays(a.delays)

    REFLECT_DST = "01:80:c2:00:00:03"

    def check_delays(self, timeout):
        """--delays: every switch reflects mpqoe's probes, and GET /wm/mpqoe/topology gets every
        link's LLDP delay (delayKnown) within timeout s; prints them. Floodlight's one-way probes
        come every 15 s per port and the estimator wants 8 of each direction: about two minutes.
        The links have no netem, so every delay must be within the target for 0 ms: 2 ms."""
        t = self.t
        t0, links = time.monotonic(), []
        while time.monotonic() - t0 < timeout:
            links = (self.rest.get("/wm/mpqoe/topology", timeout=2) or {}).get("links", [])
            if links and all(x.get("delayKnown") for x in links):
                break
            time.sleep(2)
        took = time.monotonic() - t0
        unknown = [f"{x['a']}-{x['b']}" for x in links if not x.get("delayKnown")]
        t.check(
            f"every link's delay measured by LLDP ({took:.0f} s)",
            bool(links) and not unknown,
            f"unknown: {', '.join(unknown[:8])}",
        )
        print(
            "  link delays in GET /wm/mpqoe/topology (ms): "
            + ", ".join(f"{x['a']}-{x['b']} {x['delayMs']:.2f}" for x in links),
            flush=True,
        )
        far = [f"{x['a']}-{x['b']} {x['delayMs']:.2f}" for x in links if x["delayMs"] > 2.0]
        t.check("every link's delay within 2 ms of 0 (no netem)", not far, ", ".join(far[:8]))
        silent = []
        for b in self.bridges:
            hits = [
                f["n_packets"]
                for f in mq.flow_counters(b)
                if f["priority"] == 65535 and f["match"].get("dl_dst") == self.REFLECT_DST
            ]
            if not hits or hits[0] == 0:
                silent.append(b)
        t.check(
            "every switch has mpqoe's LLDP reflect rule and reflected probes with it",
            not silent,
            f"not on {', '.join(silent[:8])}",
        )

    def wait_switches(self, with_hosts, timeout):
        """Until every bridge is connected and those with hosts hold mpqoe's delivery rules."""

        def no_delivery(b):
            if b not in with_hosts:
                return None
            kinds = {cookies.kind(f["cookie"]) for f in mq.flow_counters(b)}
            return None if cookies.DELIVERY in kinds else "no mpqoe delivery rule"

        return network.wait_bridges(
            self.bridges, self.fl.service, timeout, no_delivery, interval=0.5
        )

    def wait_links(self, n, timeout):
        deadline, found = time.monotonic() + timeout, 0
        while time.monotonic() < deadline:
            links = self.rest.get("/wm/topology/links/json") or []
            found = len(links)
            if found >= n:
                return found
            time.sleep(1)
        return found

    def wait_hosts(self, cname, sip, timeout):
        """Until mpqoe's topology has the client cname with all its interfaces and the server
        with sip; returns (seconds, mpqoe's name of the client or None, hosts)."""
        t0, hosts, spec = time.monotonic(), [], self.topo.hosts_spec
        while time.monotonic() - t0 < timeout:
            try:
                hosts = (self.rest.get("/wm/mpqoe/topology", timeout=2) or {}).get("hosts", [])
            except ERRORS:
                hosts = []
            if not discovered.missing_hosts(hosts, spec, sip):
                names = discovered.host_names(hosts, spec)
                client = next(k for k, v in names.items() if v == cname)
                return time.monotonic() - t0, client, hosts
            time.sleep(0.5)
        return time.monotonic() - t0, None, hosts

    def wait_stats(self, timeout):
        """Until /wm/statistics/bandwidth has a rate for both ends of every descriptor link
        (StatisticsCollector reports a port from its second poll on)."""
        want = {
            (int(self.topo.names[sw][1:]), p.port)
            for sw, ports in self.topo.plan.items()
            for p in ports
            if p.kind == "link"
        }
        t0, missing = time.monotonic(), sorted(want)
        while time.monotonic() - t0 < timeout:
            have = set()
            for x in self.rest.get("/wm/statistics/bandwidth/all/all/json") or []:
                try:
                    have.add((int(x["dpid"].replace(":", ""), 16), int(x["port"])))
                except (KeyError, ValueError):
                    continue
            missing = sorted(want - have)
            if not missing:
                break
            time.sleep(0.5)
        return time.monotonic() - t0, missing

    # -- traffic

    @staticmethod
    def ping_all(client, sip):
        return network.ping_from_each(client, [i for i, _ip in mq.host_interfaces(client)], sip)

    def run(self):
        self.setup()
        t, a, topo, net = self.t, self.args, self.topo, self.net
        spec = {h["name"]: h for h in topo.hosts_spec}
        cname = next(h["name"] for h in topo.hosts_spec if h.get("role") == "client")
        sname = next(h["name"] for h in topo.hosts_spec if h.get("role") == "server")
        cips = [i["ip"] for i in spec[cname]["interfaces"]]
        sip = self.sip = spec[sname]["interfaces"][0]["ip"]
        client, server = net.get(cname), net.get(sname)

        t.group("ARP and ICMP through Floodlight's Forwarding")
        n_links = len(topo.descriptor["links"])
        try:
            done = floodlight.prepare_network(
                self.rest, lambda: self.ping_all(client, sip), n_links
            )
            ok, detail = (
                True,
                (
                    f"first failed from {done['failed_first']}, then POST force-recompute"
                    if done["recomputed"]
                    else ""
                ),
            )
        except RuntimeError as e:
            ok, detail = False, str(e)
        t.check(f"{cname} pings {sname} ({sip}) from each of {len(cips)} interfaces", ok, detail)
        self.cname = cname
        if a.discovered:
            took, self.cname, hosts = self.wait_hosts(cname, sip, 30)
            t.check(
                f"mpqoe learnt the hosts from Floodlight's device manager: client"
                f" {self.cname} with {len(cips)} interfaces, server {sip} ({took:.1f} s)",
                self.cname is not None,
                json.dumps(hosts)[:400],
            )

        t.group("one MPTCP download")
        mq.enable_mptcp(server)
        eps = mq.enable_mptcp(client)
        t.check(
            f"{cname}: {len(cips) - 1} subflow endpoints",
            eps.count("subflow") == len(cips) - 1,
            eps.strip(),
        )
        srv = server.popen(
            bulk.server_cmd(count=1),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.procs.append(srv)
        if a.capture:
            self.start_captures(client, server)
        listening = srv.stdout.readline().strip()
        t.check("bulk server listens", "listening" in listening, listening)
        t0 = time.monotonic()
        cli = client.popen(
            bulk.client_cmd(sip, a.bytes, timeout=60),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.procs.append(cli)
        max_load, ss_taken = {}, False
        while cli.poll() is None and time.monotonic() - t0 < 90:
            if a.capture and not ss_taken and time.monotonic() - t0 > 5:
                ss_taken = True
                self.save(client, "ss -tinM", "client-ss.txt")
            try:
                for link in self.rest.get("/wm/mpqoe/topology", timeout=2)["links"]:
                    key = (link["a"], link["b"])
                    max_load[key] = max(max_load.get(key, 0.0), link["loadMbps"])
            except ERRORS:
                pass
            time.sleep(0.5)
        out, _ = cli.communicate(timeout=30)
        rep = last_json(out)
        sout, _ = srv.communicate(timeout=30)
        srep = last_json(sout)
        established = bulk.subflows_of(rep)
        if a.capture:
            for h in (client, server):
                mib = self.save(h, "nstat -saz", f"{h.name}-nstat.txt")
                print(f"  {h.name} MPTCP and TCP counters: " + mib_summary(mib), flush=True)
        t.check(
            f"{cname}: MPTCP download of {a.bytes} bytes",
            rep.get("bytes") == a.bytes and srep.get("bytes") == a.bytes,
            f"{rep.get('mbps')} Mbit/s, {len(established)} subflow(s) established, "
            f"{time.monotonic() - t0:.1f} s"
            if rep.get("bytes")
            else out.strip()[-300:],
        )

        conns = self.rest.get("/wm/mpqoe/connections")
        assigned = self.rest.get("/wm/mpqoe/clients")
        flows = {b: mq.flow_counters(b) for b in self.bridges}
        self.report(conns, assigned, flows, max_load)
        self.check(conns, assigned, flows, established, self.cname, max_load)

    def start_captures(self, *hosts):
        """tcpdump of the MPTCP port's headers on every interface of the hosts, into the work
        directory, the first 3000 packets each (stopped at teardown if fewer)."""
        for h in hosts:
            for intf, _ip in mq.host_interfaces(h):
                out = os.path.join(self.tmp, f"{intf}.pcap")
                self.procs.append(network.tcpdump(h, intf, out, bulk.PORT, count=3000))
        time.sleep(1)

    def save(self, host, cmd, name):
        out = host.cmd(cmd)
        with open(os.path.join(self.tmp, name), "w", encoding="utf-8") as f:
            f.write(out)
        return out

    # -- checks

    def report(self, conns, assigned, flows, max_load):
        print("  GET /wm/mpqoe/clients:")
        for x in assigned:
            print(
                f"    {x['client']} -> {x['server']}, {x['algorithm']}, fitness"
                f" {x['fitness']:.3f}: " + " | ".join(fmt_path(p) for p in x["paths"])
            )
        print("  GET /wm/mpqoe/connections:")
        for c in conns:
            for s in c["subflows"]:
                print(
                    f"    connection {c['id']} subflow {s['index']} {s['client']} -> "
                    f"{s['server']} on [{fmt_path(s['path'])}] cookie {s['cookie']} "
                    f"({s['rules']} rules, {s['matchedBy']})"
                )
        print("  mpqoe subflow rules (ovs-ofctl -O OpenFlow13 dump-flows):")
        for b in self.bridges:
            for f in flows[b]:
                if cookies.kind(f["cookie"]) == cookies.SUBFLOW:
                    m = f["match"]
                    print(
                        f"    {b}: cookie={f['cookie']:#x} n_packets={f['n_packets']} "
                        f"n_bytes={f['n_bytes']} {m.get('nw_src')}:{m.get('tp_src')} -> "
                        f"{m.get('nw_dst')}:{m.get('tp_dst')} actions={f['actions']}"
                    )
        try:
            links = self.rest.get("/wm/mpqoe/topology", timeout=2)["links"]
            print(
                "  link delays in GET /wm/mpqoe/topology (ms; 0 while unknown): "
                + ", ".join(f"{x['a']}-{x['b']} {x['delayMs']:.1f}" for x in links)
            )
        except ERRORS:
            pass
        busy = sorted(((v, k) for k, v in max_load.items() if v > 0), reverse=True)[:6]
        print(
            "  highest loads seen in GET /wm/mpqoe/topology: "
            + (", ".join(f"{a}-{b} {v:.1f} Mbit/s" for v, (a, b) in busy) or "none")
        )

    def check_own_interface(self, s, entry):
        """--spread: the subflow runs on the path assigned to its own interface, which starts at
        that interface's switch."""
        ip = s["client"].split(":")[0]
        k, at = self.topo.interface_of(self.cname, ip)
        paths = (entry or {}).get("paths", [])
        own = paths[k] if k < len(paths) else None
        self.t.check(
            f"subflow {s['index']} from {ip} (interface {k}, on {at}) on its own interface's"
            f" path [{fmt_path(s['path'])}]",
            s["path"] is not None and s["path"][:1] == [at] and s["path"] == own,
            f"assigned to interface {k}: [{fmt_path(own)}]",
        )

    def check_labels(self, s, cookie, cip, path, flows):
        """Segment routing: the subflow's cookie is only on its edge switches, each edge rule
        pushes a label stack, and following that stack through the label tables (table 1)
        walks exactly the path, every rule on the way having counted packets."""
        t = self.t
        for d, edge, want in (("up", path[0], path), ("down", path[-1], path[::-1])):
            dst = self.sip if d == "up" else cip
            rules = [
                f
                for b, fl in flows.items()
                for f in fl
                if f["cookie"] == cookie and direction(f, cip) == d
            ]
            at = {b for b, fl in flows.items() for f in fl if f in rules}
            # the shared walk (the standalone e2e's): the edge rule's stack through the label
            # tables; the first subflow's server edge also has its SYN/ACK copy rule, same stack
            labels, walked, problem, idle = edge_walk(flows, self.topo, cookie, cip, d, edge, dst)
            t.check(
                f"subflow {s['index']} ({s['cookie']}) {d}: edge rule on {edge} pushes"
                f" {labels}, label rules that counted packets lead along {'>'.join(want)}",
                at == {edge}
                and any(f["n_packets"] > 0 for f in rules)
                and problem is None
                and walked == want
                and not idle,
                f"cookie on {sorted(at)}, walk {'>'.join(walked)}"
                + (f"; {problem}" if problem else "")
                + (f"; rules that counted nothing: {idle}" if idle else ""),
            )

    def check(self, conns, assigned, flows, established, cname, max_load):
        t, topo = self.t, self.topo
        t.group("checks")
        mine = [c for c in conns if c["client"] == cname]
        t.check(
            f"GET /wm/mpqoe/connections: one connection of {cname} with routed subflows",
            len(mine) == 1 and mine[0]["subflows"],
            json.dumps(conns)[:400],
        )
        entry = next((x for x in assigned if x["client"] == cname), None)
        n_paths = sum(1 for p in (entry or {}).get("paths", []) if p is not None)
        routed = [s for c in mine for s in c["subflows"]]
        t.check(
            f"kernel subflows ({len(established)}) = paths assigned ({n_paths}) = subflows"
            f" routed ({len(routed)})",
            n_paths > 0 and len(established) == n_paths == len(routed),
        )
        for c in mine:
            for s in c["subflows"]:
                cookie = int(s["cookie"], 16)
                cip = s["client"].split(":")[0]
                # Discovered switches are named like the bridges (s<dpid>).
                path = [topo.names.get(n, n) for n in s["path"]]
                if self.args.segment_routing:
                    self.check_labels(s, cookie, cip, path, flows)
                    continue
                for d in ("up", "down"):
                    counted, present = set(), set()
                    for b, fl in flows.items():
                        for f in fl:
                            if f["cookie"] == cookie and direction(f, cip) == d:
                                present.add(b)
                                if f["n_packets"] > 0:
                                    counted.add(b)
                    t.check(
                        f"subflow {s['index']} ({s['cookie']}) {d}: mpqoe rules counting packets"
                        f" exactly on {'>'.join(path)}",
                        counted == set(path),
                        f"counted on {sorted(counted)}, rules on {sorted(present)}",
                    )
                if self.args.spread:
                    self.check_own_interface(s, entry)
        traps = {}
        want = {
            (topo.names[sw], p.port)
            for sw, ports in topo.plan.items()
            for p in ports
            if p.kind == "host"
        }
        if self.args.discovered:
            # Only the ports where Floodlight saw a host: interfaces that never sent are unknown.
            hosts = (self.rest.get("/wm/mpqoe/topology") or {}).get("hosts", [])
            want = {(i["switch"], i["port"]) for h in hosts for i in h["interfaces"]}
        for b, fl in flows.items():
            for f in fl:
                if cookies.kind(f["cookie"]) == cookies.TABLE_MISS and "tcp_flags" in f["match"]:
                    traps[(b, int(f["match"].get("in_port", -1)))] = f
        client = next(h for h in topo.hosts_spec if h.get("role") == "client")
        client_sw = topo.names[client["interfaces"][0]["switch"]]
        counted = sum(f["n_packets"] for (b, _p), f in traps.items() if b == client_sw)
        t.check(
            f"SYN trap on all {len(want)} host ports (OVS took tcp_flags); {client_sw}'s"
            f" counted {counted} SYN(s)",
            set(traps) == want and counted > 0,
            f"traps on {sorted(traps)}, host ports {sorted(want)}",
        )
        fwd = [
            (b, f)
            for b, fl in flows.items()
            for f in fl
            if cookies.floodlight_app(f["cookie"]) == cookies.FORWARDING_APP
            and str(bulk.PORT) in (f["match"].get("tp_src"), f["match"].get("tp_dst"))
            and f["n_packets"] > 0
        ]
        t.check(
            f"Forwarding carried none of the MPTCP connection (no flow for port {bulk.PORT})",
            not fwd,
            "; ".join(f"{b}: {f['match']}" for b, f in fwd[:3]),
        )
        path_links = set()
        for s in routed:
            path_links |= link_pairs(s["path"])
        on_path = {k: v for k, v in max_load.items() if frozenset(k) in path_links}
        t.check(
            "Floodlight's port statistics reached mpqoe: every subflow link showed > 1 Mbit/s"
            " in GET /wm/mpqoe/topology during the transfer",
            len(on_path) == len(path_links) and all(v > 1 for v in on_path.values()),
            ", ".join(f"{a}-{b} {v:.1f}" for (a, b), v in sorted(on_path.items())),
        )
        log = self.fl.service.text()
        chain = re.search(r"PACKET_IN listeners: (.*)", log)
        order = [x.strip() for x in chain.group(1).split(",")] if chain else []
        ok = (
            "mpqoe" in order
            and "forwarding" in order
            and order.index("mpqoe") < order.index("forwarding")
            and "mpqoe-lldp" in order
            and order.index("mpqoe-lldp") < order.index("linkdiscovery")
            and all(
                order.index(x) < order.index("mpqoe")
                for x in ("linkdiscovery", "topology", "devicemanager")
                if x in order
            )
        )
        t.check(
            "PACKET_IN chain: mpqoe-lldp, linkdiscovery, ... devicemanager, mpqoe, forwarding",
            ok,
            ", ".join(order),
        )
        routed_lines = [ln for ln in log.splitlines() if ": MPTCP " in ln]
        t.check(
            "Floodlight log: mpqoe handled the handshakes",
            bool(routed_lines),
            f"{len(routed_lines)} line(s), e.g. {routed_lines[0].strip()}" if routed_lines else "",
        )
        bad = [
            ln
            for ln in log.splitlines()
            if "refused an mpqoe rule" in ln or "mpqoe failed" in ln or "at org.mpqoe." in ln
        ]
        t.check("no mpqoe rule refused, no mpqoe exception", not bad, " || ".join(bad[:3]))


def mib_summary(nstat):
    """The non-zero MPTCP counters and TCP resets and retransmissions of `nstat -saz` output."""
    keep = []
    for line in nstat.splitlines():
        f = line.split()
        if (
            len(f) >= 2
            and f[1] != "0"
            and (
                f[0].startswith("MPTcp")
                or f[0] in ("TcpExtTCPAbortOnData", "TcpOutRsts", "TcpRetransSegs")
            )
        ):
            keep.append(f"{f[0].removeprefix('MPTcpExt')}={f[1]}")
    return ", ".join(keep) or "none"


def main():
    p = argparse.ArgumentParser(description="Floodlight + mpqoe real check (root)")
    p.add_argument("--floodlight-jar", required=True, help="the user's floodlight.jar")
    p.add_argument("--module-jar", required=True, help="target/mpqoe-floodlight.jar")
    p.add_argument("--topology", default="compuserve")
    p.add_argument("--seed", type=int, default=1, help="client placement seed")
    p.add_argument("--algorithm", default="ga")
    p.add_argument(
        "--segment-routing",
        action="store_true",
        help="module parameter segmentRouting=true (and MTU 1600 on switch-to-switch veths)",
    )
    p.add_argument(
        "--discovered",
        action="store_true",
        help="no descriptor for Floodlight: mpqoe routes on the network Floodlight discovered",
    )
    p.add_argument(
        "--spread",
        action="store_true",
        help="the client's three interfaces on three different switches (with-clients"
        " --interface-switches), source policy routing on it; each subflow must run on the path"
        " of its own interface",
    )
    p.add_argument(
        "--delays",
        type=int,
        nargs="?",
        const=240,
        default=0,
        metavar="S",
        help="module parameter useLldpLatency=true; wait up to S s (240) until every link's LLDP"
        " delay is known, print the delays, check each is within 2 ms of 0 (no netem) and that"
        " every switch reflected probes",
    )
    p.add_argument("--dpid-offset", type=int, default=100, help="added to every DPID")
    p.add_argument("--host-prefix", default="fl-", help="put before every host name")
    p.add_argument("--bytes", type=int, default=120_000_000)
    p.add_argument(
        "--capture",
        action="store_true",
        help="diagnostics in the work directory: tcpdump of the MPTCP port on every host"
        " interface, the client's ss -tinM during the transfer, both hosts' nstat after it",
    )
    checks.add_run_options(p, timeout=300, log_lines=60, log_name="Floodlight log")
    args = p.parse_args()
    if args.spread and args.discovered:
        p.error(
            "--spread needs the descriptor: a discovered network cannot group a client's addresses"
        )
    try:
        floodlight.require_jars(args.floodlight_jar, args.module_jar)
    except ValueError as e:
        p.error(str(e))
    args.floodlight_jar = os.path.abspath(args.floodlight_jar)
    args.module_jar = os.path.abspath(args.module_jar)
    if os.geteuid() != 0:
        print("floodlight-it: run as root", file=sys.stderr)
        return 2
    setLogLevel("info" if args.verbose else "warning")
    checks.deadline(args.timeout + args.delays)
    t = checks.Checks()
    run = None
    try:
        print(f"OVS: {network.ensure_ovs()}; datapath {mq.ovs_datapath()}", flush=True)
        run = Run(args, t)
        with run:
            run.run()
    except (checks.Timeout, KeyboardInterrupt, RuntimeError, mq.MpqoeError, OSError) as e:
        t.check("ran to the end", False, f"{type(e).__name__}: {e}")
    finally:
        signal.alarm(0)
    if run is not None:
        log = run.fl.log_path if run.fl else None
        checks.keep_or_remove(t, run.tmp, args.keep, log, args.log_lines, "Floodlight log")
    return t.summary("floodlight-it")


if __name__ == "__main__":
    sys.exit(main())

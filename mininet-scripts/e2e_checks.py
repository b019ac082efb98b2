"""The end-to-end test's checks (a-e of e2e_controller.py's docstring), as a mixin of its Run:
they read the controller's REST answers, the switches' flow counters and the logs."""

import json
import os
import re
import subprocess
import time

from mpqoe import bulk, cookies, files
from mpqoe import topo as mq
from mpqoe.bulk import describe_subflows, subflows_of
from mpqoe.flows import cookie_switches, direction, edge_walk, fmt_path, link_pairs
from mpqoe.network import OVS_LOG
from mpqoe.proc import last_json, read_since


def all_flows(bridges):
    return {b: mq.flow_counters(b) for b in bridges}


def plain_key(bridge, f):
    return (bridge, f["table"], f["priority"], tuple(sorted(f["match"].items())))


def plain_counts(flows):
    """{rule: packets} of the plain (shortest-path) rules in all_flows' answer."""
    return {
        plain_key(b, f): f["n_packets"]
        for b, fl in flows.items()
        for f in fl
        if cookies.kind(f["cookie"]) == cookies.PLAIN
    }


class E2eChecks:
    """Needs from the Run: t (checks.Checks), args, topo, net, rest, ctl, bridges, clients,
    ips, sip, server (bulk.BulkServer), first, procs, t_start, ovs_log, seed, log_from and
    plain_before (the discovery pings' log and plain rules, which e does not count), and tmp
    (the work directory, kept when a check fails)."""

    def keep_evidence(self, name, doc):
        """What checks read, as TMP/<name>.json: the work directory outlives a failed run, the
        switches and the controller do not."""
        files.write_json(os.path.join(self.tmp, f"{name}.json"), doc)

    def check_topology(self):
        """GET /mpqoe/topology: the descriptor confirmed by discovery (source
        descriptor+discovered, once the controller compared them: a probe interval after the
        last switch connected), or the discovered network alone; no mismatches, every link."""
        t = self.t
        t.group("a. GET /mpqoe/topology and /mpqoe/connections")
        want = "discovered" if self.args.discovered else "descriptor+discovered"
        deadline, topo = time.monotonic() + 15, {}
        while time.monotonic() < deadline:
            topo = self.rest.get("/mpqoe/topology") or {}
            if topo.get("source") == want:
                break
            time.sleep(0.5)
        n = len(self.topo.descriptor["links"])
        links = topo.get("links", [])
        t.check(
            f"source {want}, no mismatches, the {n} links up",
            topo.get("source") == want
            and topo.get("mismatches") == []
            and len(links) == n
            and all(x["up"] for x in links),
            f"source {topo.get('source')}, {len(links)} links"
            f" ({sum(1 for x in links if not x['up'])} down), mismatches "
            + json.dumps(topo.get("mismatches"))[:300],
        )

    def n_paths(self, entry):
        n = len(self.ips.get(entry["client"], []))
        return sum(1 for p in entry["paths"][:n] if p is not None)

    def print_state(self, conns, assigned):
        for x in assigned:
            print(
                f"  {x['client']}: {len(x['paths'])} path(s) assigned (fitness "
                f"{x.get('fitness', 0):.3f}): " + " | ".join(fmt_path(p) for p in x["paths"])
            )
        for c in conns:
            for s in c["subflows"]:
                print(
                    f"  connection {c['id']} {c['client']} subflow {s['index']} {s['client']} "
                    f"path {s['pathIndex']} [{fmt_path(s['path'])}] cookie {s['cookie']} "
                    f"({s['matchedBy']})"
                )

    def check_connections(self, conns):
        t = self.t
        for c in self.clients:
            mine = [x for x in conns if x["client"] == c]
            ok = len(mine) == 1 and mine[0]["subflows"]
            detail = (
                f"connection {mine[0]['id']}: "
                + "; ".join(
                    f"subflow {s['index']} from {s['client']} on [{fmt_path(s['path'])}]"
                    for s in mine[0]["subflows"]
                )
                if len(mine) == 1
                else f"{len(mine)} connections"
            )
            bad = [
                s["index"]
                for x in mine
                for s in x["subflows"]
                if not s["path"] or any(n not in self.topo.names for n in s["path"])
            ]
            if bad:
                ok, detail = False, f"subflow(s) {bad} with an empty or unknown path; {detail}"
            t.check(f"{c}: one connection with routed subflows", ok, detail)

    def check_counters(self, conns, flows, tag, only=None):
        """b: per subflow, the switches whose rules of its cookie counted packets = its path."""
        t = self.t
        t.group(f"{tag}. flow counters per subflow cookie (ovs-ofctl dump-flows)")
        for c in conns:
            for s in c["subflows"]:
                if only is not None and (c["id"], s["index"]) not in only:
                    continue
                cookie = int(s["cookie"], 16)
                cip = s["client"].split(":")[0]
                path = [self.topo.names[n] for n in s["path"]]
                name = f"{c['client']} subflow {s['index']} ({s['cookie']})"
                kind = cookies.kind(cookie)
                if kind != cookies.SUBFLOW:
                    t.check(f"{name}: cookie of kind SUBFLOW", False, f"kind {kind}")
                    continue
                counted = cookie_switches(flows, cookie, cip)
                present = cookie_switches(flows, cookie, cip, counted=False)
                if self.args.segment_routing:
                    self.check_sr(name, s, cookie, path, counted, present, flows)
                    continue
                for d in ("up", "down"):
                    want = set(path)
                    t.check(
                        f"{name} {d}: rules counting packets exactly on {'>'.join(path)}",
                        counted[d] == want,
                        f"counted on {sorted(counted[d])}, rules on {sorted(present[d])}"
                        + (f", missing {sorted(want - counted[d])}" if want - counted[d] else "")
                        + (f", extra {sorted(counted[d] - want)}" if counted[d] - want else ""),
                    )

    def check_sr(self, name, s, cookie, path, counted, present, flows):
        """Segment routing: edge rules of the cookie, then the label stack walked hop by hop."""
        t = self.t
        edges = {"up": path[0], "down": path[-1]}
        for d in ("up", "down"):
            t.check(
                f"{name} {d}: cookie only on the edge {edges[d]}, counting packets",
                present[d] == {edges[d]} and counted[d] == {edges[d]},
                f"rules on {sorted(present[d])}, counted on {sorted(counted[d])}",
            )
            cip = s["client"].split(":")[0]
            dst = self.sip if d == "up" else cip
            want = path if d == "up" else path[::-1]
            labels, visited, problem, idle = edge_walk(
                flows, self.topo, cookie, cip, d, edges[d], dst
            )
            if labels is None:
                t.check(f"{name} {d}: edge rule pushes a label stack", False, problem)
                continue
            t.check(
                f"{name} {d}: labels {labels} lead along {'>'.join(want)} and OVS forwarded them",
                problem is None and visited == want and not idle,
                f"walk {'>'.join(visited)}"
                + (f"; {problem}" if problem else "")
                + (f"; rules that counted nothing: {idle}" if idle else ""),
            )

    def check_subflow_counts(self, conns, assigned, before, after, partial, several, summary):
        t = self.t
        t.group("c. subflows established by the kernel = paths assigned by the controller")
        if not self.args.spread:
            t.check(
                "a client has 2 or more paths, but fewer than interfaces",
                bool(several),
                f"seed {self.seed}, thr_delay {self.args.thr_delay}: {summary}"
                + ("" if partial else " (no refused join to check: try --thr-delay auto)"),
            )
        for c in self.clients:
            entry = next((x for x in assigned if x["client"] == c), None)
            want = self.n_paths(entry) if entry else 0
            rep, srep = self.first[c]
            server_sf = subflows_of(srep)
            client_sf = subflows_of(rep)
            routed = [s for x in conns if x["client"] == c for s in x["subflows"]]
            t.check(
                f"{c}: {len(server_sf)} subflow(s) on the server socket = {want} path(s) assigned",
                entry is not None and len(server_sf) == want and len(routed) == want,
                f"client socket {len(client_sf)} established ({describe_subflows(rep)}); "
                f"REST lists {len(routed)} routed subflow(s); paths "
                + (" | ".join(fmt_path(p) for p in entry["paths"]) if entry else "none"),
            )
            if entry is None:
                continue
            log = self.ctl.text()
            for i, ip in enumerate(self.ips[c]):
                if i and (i >= len(entry["paths"]) or entry["paths"][i] is None):
                    needle = f"no path {i + 1} for interface {ip}"
                    t.check(
                        f"{c}: controller refused the join from {ip} (no path {i + 1})",
                        needle in log,
                        next((ln.strip() for ln in log.splitlines() if needle in ln), "not logged"),
                    )
        joins = after.get("MPJoinSynRx", 0) - before.get("MPJoinSynRx", 0)
        acks = after.get("MPJoinAckRx", 0) - before.get("MPJoinAckRx", 0)
        print(f"  server MPTcpExt: MPJoinSynRx +{joins}, MPJoinAckRx +{acks}", flush=True)

    def check_spread(self, conns, assigned, flows):
        """--spread: each subflow on the path assigned to its own interface, from that
        interface's switch; prints interface, path and the packets counted at the client edge."""
        t = self.t
        t.group("c. (--spread) every subflow on the path of its own interface")
        for c in conns:
            entry = next((x for x in assigned if x["client"] == c["client"]), None)
            for s in c["subflows"]:
                ip = s["client"].split(":")[0]
                k, at = self.topo.interface_of(c["client"], ip)
                own = entry["paths"][k] if entry and k < len(entry["paths"]) else None
                cookie = int(s["cookie"], 16)
                packets = {"up": 0, "down": 0}
                for f in flows.get(self.topo.names[at], []):
                    d = direction(f, ip)
                    if f["cookie"] == cookie and d:
                        packets[d] += f["n_packets"]
                t.check(
                    f"{c['client']} subflow {s['index']} from {ip} (interface {k}, on {at}):"
                    f" [{fmt_path(s['path'])}], {packets['up']} packets up and"
                    f" {packets['down']} down at {at}",
                    s["path"] is not None
                    and s["path"][:1] == [at]
                    and s["path"] == own
                    and s["pathIndex"] == k + 1
                    and packets["up"] > 0
                    and packets["down"] > 0,
                    f"assigned to interface {k}: [{fmt_path(own)}], path {s['pathIndex']}",
                )
        bad = [ln.strip() for ln in self.ctl.text().splitlines() if "not a selected path" in ln]
        t.check("no subflow on a path that was not selected", not bad, "; ".join(bad[:3]))

    @staticmethod
    def pick_link(conn):
        """(subflow, (a, b)) of one connection to fail: preferably a link that no other subflow
        of the connection uses, on a joined subflow. None when no subflow crosses a link."""
        best = None
        for s in sorted(conn["subflows"], key=lambda x: -x["index"]):
            others = set()
            for o in conn["subflows"]:
                if o is not s:
                    others |= link_pairs(o["path"])
            for pair in zip(s["path"], s["path"][1:], strict=False):
                score = (frozenset(pair) not in others, s["index"] > 1)
                if best is None or score > best[0]:
                    best = (score, s, pair)
        return None if best is None else best[1:]

    def check_failure(self, conns, assigned):
        t, a, net = self.t, self.args, self.net
        t.group("d. link failure during a transfer")
        # The client with the most paths: its new connection has the most subflows.
        client = max(
            self.clients,
            key=lambda c: max((self.n_paths(x) for x in assigned if x["client"] == c), default=0),
        )
        rep0 = self.first[client][0]
        mbps = max(float(rep0.get("mbps") or 0), 10.0)
        size = max(a.fail_bytes, int(mbps * 1e6 / 8 * a.fail_seconds))
        print(f"  new {client} download of {size} bytes", flush=True)
        known = {x["id"] for x in conns}
        host = net.get(client)
        srv_seen = {id(r) for r in self.server.reports}
        proc = host.popen(
            bulk.client_cmd(self.sip, size, timeout=60),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.procs.append(proc)
        # Wait for the new connection and its joins (at most 3 s once it is there).
        conn, want, seen, deadline = None, 0, None, time.monotonic() + 10
        while time.monotonic() < deadline and proc.poll() is None:
            entry = next(
                (x for x in self.rest.get("/mpqoe/clients") if x["client"] == client), None
            )
            want = self.n_paths(entry) if entry else 1
            now = [
                x
                for x in self.rest.get("/mpqoe/connections")
                if x["client"] == client and x["id"] not in known
            ]
            if now:
                conn, seen = now[0], seen or time.monotonic()
                if len(conn["subflows"]) >= want or time.monotonic() - seen > 3:
                    break
            time.sleep(0.05)
        if conn is None:
            t.check(
                f"new {client} connection before the failure",
                False,
                "transfer already over (raise --fail-bytes)"
                if proc.poll() is not None
                else "not seen in GET /mpqoe/connections within 10 s",
            )
            return
        t.check(
            f"connection {conn['id']}: {want} subflow(s) routed before the failure",
            len(conn["subflows"]) >= want,
            f"GET /mpqoe/connections lists {len(conn['subflows'])}",
        )
        pick = self.pick_link(conn)
        if pick is None:
            t.check("a switch-to-switch link to fail", False, json.dumps(conn["subflows"]))
            return
        old, (na, nb) = pick
        ba, bb = self.topo.names[na], self.topo.names[nb]
        # Routed is not established: a join whose SYN/ACK was still on the failed link waited
        # for the client's SYN retransmission (1 s), which the set-up times (f) then showed.
        time.sleep(0.3)
        t_down = time.monotonic()
        net.configLinkStatus(ba, bb, "down")
        print(
            f"  {na} - {nb} ({ba} - {bb}) down at {t_down - self.t_start:.1f} s, during"
            f" connection {conn['id']} (subflow {old['index']} on [{fmt_path(old['path'])}],"
            f" cookie {old['cookie']})",
            flush=True,
        )
        try:
            out, _ = proc.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        rep = last_json(out)
        srep = self.server.report_for(self.ips[client], srv_seen)
        t.check(
            f"{client}: download of {size} bytes completed across the failure",
            rep.get("bytes") == size,
            f"{rep.get('mbps')} Mbit/s in {rep.get('duration_s')} s, "
            f"{time.monotonic() - t_down:.1f} s after the link went down; "
            f"client subflows {describe_subflows(rep)}; server subflows {describe_subflows(srep)}"
            if rep.get("bytes")
            else (out or "").strip()[-300:],
        )
        topo_state = self.rest.get("/mpqoe/topology")
        link = next(
            (x for x in topo_state["links"] if {x["a"], x["b"]} == {na, nb}),
            None,
        )
        t.check(
            f"GET /mpqoe/topology: {na} - {nb} down",
            link is not None and link["up"] is False,
            json.dumps(link),
        )
        conns2 = self.rest.get("/mpqoe/connections")
        flows = all_flows(self.bridges)
        self.keep_evidence(
            "d-failure",
            {"client": rep, "server": srep, "connections": conns2, "flows": flows, "link": link},
        )
        now = next((x for x in conns2 if x["id"] == conn["id"]), None)
        new = next(
            (s for s in (now or {}).get("subflows", []) if s["index"] == old["index"]),
            None,
        )
        if new is None:
            t.check(
                f"connection {conn['id']} subflow {old['index']} still routed",
                False,
                "connection gone" if now is None else json.dumps(now["subflows"]),
            )
            return
        moved = frozenset((na, nb)) not in link_pairs(new["path"])
        gen_old, gen_new = (cookies.generation(int(x["cookie"], 16)) for x in (old, new))
        if self.args.spread:
            t.check(
                f"subflow {old['index']} still starts at its interface's switch {old['path'][0]}",
                new["path"][:1] == old["path"][:1],
                f"[{fmt_path(old['path'])}] -> [{fmt_path(new['path'])}]",
            )
        t.check(
            f"subflow {old['index']} moved off {na} - {nb}",
            moved and gen_new == gen_old + 1,
            f"[{fmt_path(old['path'])}] -> [{fmt_path(new['path'])}], cookie {old['cookie']} ->"
            f" {new['cookie']}",
        )
        leftover = sorted(
            b for b, fl in flows.items() for f in fl if f["cookie"] == int(old["cookie"], 16)
        )
        t.check(f"old cookie {old['cookie']} removed from every switch", not leftover, leftover)
        self.check_counters(conns2, flows, "d", only={(conn["id"], old["index"])})
        self.print_state(conns2, self.rest.get("/mpqoe/clients"))

    def check_log(self):
        t = self.t
        t.group("e. controller log")
        text = self.ctl.text()
        bad = [
            ln
            for ln in text.splitlines()
            if re.search(r"\berror [A-Z_]+|Exception|\bERROR\b|SEVERE", ln)
        ]
        t.check(
            "no OpenFlow errors or exceptions in the controller log",
            not bad,
            f"{len(bad)} line(s), first: " + " || ".join(bad[:3]) if bad else "",
        )
        ovs = [
            ln
            for ln in read_since(OVS_LOG, self.ovs_log).splitlines()
            if any(b + "-" in ln or b + ":" in ln for b in self.bridges)
            and ("|WARN|" in ln or "|ERR|" in ln)
        ]
        too_long = [ln for ln in ovs if "Message too long" in ln]
        t.check(
            "ovs-vswitchd dropped no frame of ours as too long",
            not too_long,
            f"{len(too_long)} 'Message too long' warning(s) in {OVS_LOG}, first: {too_long[0]}"
            if too_long
            else f"{len(ovs)} other warning(s)" + (f", first: {ovs[0]}" if ovs else ""),
        )
        hosts = {ip for ips in self.ips.values() for ip in ips}
        bypass = [
            f"{b}: nw_dst={f['match'].get('nw_dst')} n_packets={f['n_packets']}"
            for b, fl in all_flows(self.bridges).items()
            for f in fl
            if cookies.kind(f["cookie"]) == cookies.PLAIN
            and f["match"].get("nw_dst") in hosts
            and f["n_packets"] > self.plain_before.get(plain_key(b, f), 0)
        ]
        t.check(
            "no traffic between the hosts went through plain (shortest-path) rules",
            not bypass,
            "; ".join(bypass[:6]),
        )
        # Every frame between the hosts is MPTCP (ARP is answered): a packet-in that the
        # controller routes as plain IPv4 is a segment that reached it outside a handshake.
        since = read_since(self.ctl.log_path, self.log_from)
        plain = [ln.strip() for ln in since.splitlines() if ": PLAIN IPv4 to " in ln]
        where = {}
        for ln in plain:
            m = re.search(r"packet-in (.+? port \d+): PLAIN IPv4 to (\S+)", ln)
            if m:
                where[m.groups()] = where.get(m.groups(), 0) + 1
        t.check(
            "no packet-in between the hosts was routed as plain IPv4",
            not plain,
            f"{len(plain)} such packet-in(s): "
            + ", ".join(f"{n} at {k[0]} to {k[1]}" for k, n in sorted(where.items()))
            + f"; first: {plain[0]}"
            if plain
            else "",
        )

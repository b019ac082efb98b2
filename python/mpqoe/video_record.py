"""What one video-experiment run records, and the compact per-client rows committed under
docs/results/. Pure functions over plain data (unit-tested in test_record.py).
"""

import csv
import gzip
import io
import os
import re
import statistics

from mpqoe import video_matrix as vmx
from mpqoe.framework_qoe import framework_qoe

# The committed per-run table: one row per client per run (testbed/video/video_report.py reads it).
COLUMNS = (
    "experiment,cell,topology,clients,algorithm,scheduler,rcvbuf_kb,delay_diff_ms,segment_s,"
    "video_s,run,seed,code_version,client,status,avg_bitrate_kbps,avg_rendered_kbps,switches_ga,"
    "switches_count,outage_s,stalls,startup_s,success_rate,mean_throughput_kbps,n_paths,"
    "path_delays_ms,path_bw_mbps,shared_links,host_load,guest_load,bridge_rtt_ms,bridge_lag_ms,"
    "bridge_ratio,redownloads,redownload_share,controller,estimate_error,background,"
    "fw_bitrate_kbps,fw_switches,fw_underruns,fw_underrun_s"
).split(",")

# The time series of QoMRA's 6 s segment cells (throughput_rows, link_rows): table -> columns.
SERIES = {
    "qomra-throughput": ("cell", "run", "client", "second", "kbps"),
    "qomra-links": ("cell", "run", "link", "second", "utilisation"),
}


def paper(experiment):
    """The results page an experiment's tables belong to."""
    return "qomra-paper" if experiment.startswith("qomra") else "ga-paper"


def published(experiment, results):
    """{table: path} of an experiment's committed tables under results (docs/results): its
    per-client table, its attempts (<experiment>-attempts), for a design with link draws its
    failed attempts as they ended (<experiment>-ended), its ok runs' paths (<experiment>-paths)
    and its draws' links (<experiment>-draws), and for QoMRA the time series."""
    names = [experiment, attempts_table(experiment)]
    if has_ended(experiment):
        names += [ended_table(experiment), paths_table(experiment), draws_table(experiment)]
    names += list(SERIES) if experiment == "qomra" else []
    return {n: os.path.join(results, paper(experiment), "data", f"{n}.csv") for n in names}


def attempts_table(experiment):
    return f"{experiment}-attempts"


# The client rows (COLUMNS, then ENDED_COLUMNS) of an experiment's failed attempts as they
# ended: its report compares the algorithms over the ok runs and, apart, over these beside them,
# because a check that drops an attempt (a fallback the controller caused, say) could bias a
# comparison of the ok runs alone by its absence. Published for the designs with link draws.
ENDED_COLUMNS = ("attempt",)


def ended_table(experiment):
    return f"{experiment}-ended"


# The switches of every path the controller assigned to a client in an ok run (a design with
# link draws): path_text per path, joined by ";" in the assignment's order.
PATH_COLUMNS = ("cell", "run", "code_version", "client", "paths")
# The links of each link draw of such a design (a network: topology, clients and seed), from the
# descriptor its runs were made on, with the switch of the server's first interface (its address
# the clients connect to) and the switches of the clients' interfaces: what the report's
# capacities are computed over.
DRAW_COLUMNS = ("topology", "clients", "seed", "a", "b", "capacity_mbps", "delay_ms",
                "server_switch", "client_switches")  # fmt: skip


def paths_table(experiment):
    return f"{experiment}-paths"


def draws_table(experiment):
    return f"{experiment}-draws"


def path_text(path):
    """A path as committed: its switches joined by ">" (switch names hold no ">" or ";")."""
    for name in path:
        if ">" in name or ";" in name:
            raise ValueError(f"switch name {name!r} holds '>' or ';'")
    return ">".join(path)


def parse_paths(text):
    """The paths of a committed paths cell: [[switch, ...], ...] ([] for an empty one)."""
    return [p.split(">") for p in text.split(";")] if text else []


def path_rows(doc):
    """PATH_COLUMNS rows of an ok run: per client, the switches of its assigned paths (a client
    without an assignment: no paths)."""
    rows = []
    for c in doc.get("clients") or []:
        a = c.get("assignment") or {}
        paths = ";".join(path_text(p) for p in a.get("paths") or [] if p)
        rows.append({"cell": doc["cell"], "run": doc["run"], "code_version": doc["code_version"],
                     "client": c["name"], "paths": paths})  # fmt: skip
    return rows


def draw_rows(doc, descriptor):
    """DRAW_COLUMNS rows of the network a run was made on: its descriptor's switch links, the
    server's first switch and the clients' switches (";"-joined, sorted). ValueError for a run
    without a seed or a descriptor without one server."""
    p = doc["params"]
    if p.get("seed") in (None, ""):
        raise ValueError(f"{doc['cell']} run{doc['run']}: no seed, so no draw")
    servers = [h for h in descriptor.get("hosts") or [] if h.get("role") == "server"]
    if len(servers) != 1 or not servers[0].get("interfaces"):
        raise ValueError(f"{doc['cell']} run{doc['run']}: its descriptor has not one server")
    clients = sorted({i["switch"] for h in descriptor["hosts"] if h.get("role") == "client"
                      for i in h.get("interfaces") or []})  # fmt: skip
    common = {"topology": p["topology"], "clients": p["clients"], "seed": p["seed"],
              "server_switch": servers[0]["interfaces"][0]["switch"],
              "client_switches": ";".join(path_text([c]) for c in clients)}  # fmt: skip
    rows = [dict(common, a=x["a"], b=x["b"], capacity_mbps=x.get("capacityMbps", ""),
                 delay_ms=x.get("delayMs", "")) for x in descriptor["links"]]  # fmt: skip
    return [{k: r[k] for k in DRAW_COLUMNS} for r in rows]


def has_ended(experiment):
    """Whether the experiment's failed attempts are published as they ended: a design whose
    runs pair by link draw (video_matrix.paired_by)."""
    return vmx.paired_by(experiment) is not None


def ended_rows(doc, samples, attempt):
    """The ended table's rows of one failed attempt (its run document, its players' samples,
    its name in the attempts table); none when it ended before its players did."""
    if not doc.get("clients"):
        return []
    return [dict(r, attempt=attempt) for r in csv_rows(doc, samples)]


# Harness clients.csv column -> committed column (the rest keep their names).
QOE = {
    "avg_bitrate_kbps": "avg_bitrate_kbps",
    "avg_rendered_kbps": "avg_rendered_kbps",
    "switches_ga": "switches_ga",
    "switches_count": "switches_count",
    "outage_s": "outage_s",
    "stalls": "stalls",
    "startup_delay_s": "startup_s",
    "success_rate": "success_rate",
    "mean_throughput_kbps": "mean_throughput_kbps",
    "redownloads": "redownloads",
    "redownload_share": "redownload_share",
    "estimate_error": "estimate_error",
}


def link_index(descriptor):
    """{frozenset({a, b}): link dict} of a descriptor's switch-to-switch links."""
    return {frozenset((x["a"], x["b"])): x for x in descriptor["links"]}


def path_links(path):
    """The unordered switch pairs a path (list of switch names) crosses."""
    return [frozenset(p) for p in zip(path, path[1:], strict=False)]


def path_metrics(descriptor, paths):
    """Per assigned path (None = a subflow without a path): one-way delay (ms, the sum of its
    links' delays), bottleneck capacity (Mbit/s), and the number of links that more than one
    of these paths uses. A path over a link the descriptor lacks is a ValueError."""
    links = link_index(descriptor)
    delays, bws, seen = [], [], {}
    for p in paths:
        if not p:
            continue
        hops = path_links(p)
        for h in hops:
            if h not in links:
                raise ValueError(f"path {'-'.join(p)} uses {sorted(h)}, not a descriptor link")
            seen[h] = seen.get(h, 0) + 1
        delays.append(round(sum(float(links[h].get("delayMs") or 0) for h in hops), 3))
        caps = [float(links[h]["capacityMbps"]) for h in hops if links[h].get("capacityMbps")]
        bws.append(round(min(caps), 3) if caps else None)
    shared = sum(1 for n in seen.values() if n > 1)
    return {"delays_ms": delays, "bw_mbps": bws, "shared_links": shared}


def harness_rows(csv_text):
    """The harness's clients.csv as a list of dicts (client id as int)."""
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    for r in rows:
        r["client"] = int(r["client"])
    return rows


def cpu_busy(a, b):
    """Share of CPU time not idle/iowait between two /proc/stat cpu lines."""
    d = [y - x for x, y in zip(a, b, strict=False)]
    total = sum(d)
    return None if total <= 0 else round(1 - (d[3] + d[4]) / total, 3)


def mean_busy(samples, key):
    """Mean CPU busy share of one machine over a run's load samples (cpu lines in order)."""
    cpus = [s[key]["cpu"] for s in samples if s.get(key)]
    if len(cpus) < 2:
        return None
    return cpu_busy(cpus[0], cpus[-1])


def _median(values, digits):
    return round(statistics.median(values), digits) if values else None


def bridge_rtt(samples):
    """Median round trip (ms) of the host-guest bridge over a run's load samples, or None."""
    return _median([s["guest"]["bridge_rtt_ms"] for s in samples
                    if "bridge_rtt_ms" in (s.get("guest") or {})], 2)  # fmt: skip


def background_text(bg):
    """The run's background flow as one cell: 'srv1>h5@50' (from, to, start in s), or ''."""
    return f"{bg['from']}>{bg['to']}@{bg['start_s']:g}" if bg else ""


# The GA paper's authors' QoE metric (mpqoe.framework_qoe) of a client: committed column ->
# FrameworkQoE field. Empty for a client that did not finish, for one whose samples never had
# quality and bitrate known, and in rows published before the players logged them.
FRAMEWORK = {
    "fw_bitrate_kbps": "bitrate_kbps",
    "fw_switches": "switches",
    "fw_underruns": "underruns",
    "fw_underrun_s": "underrun_s",
}


def framework_columns(samples):
    """{FRAMEWORK column: value} of one client's samples (t, buffer, quality, bitrate), the
    values as committed (the bitrate to 0.1 kbit/s), "" when nothing is known; what publish
    writes and what the report recomputes from the committed sample log."""
    q = framework_qoe(samples)
    if q is None:
        return dict.fromkeys(FRAMEWORK, "")
    out = {col: getattr(q, f) for col, f in FRAMEWORK.items()}
    out["fw_bitrate_kbps"] = round(out["fw_bitrate_kbps"], 1)
    return out


# The players' 1 s samples of a run, one gzip CSV per run beside the per-run table, from which
# the FRAMEWORK columns recompute: <data>/samples/<experiment>/<cell>/run<k>-<code version>.csv.gz
# (a run is its cell, number and code version, as in the table). buffer_s, quality (0 = lowest)
# and bitrate_kbps are empty where the player had none.
SAMPLE_COLUMNS = ("client", "t", "buffer_s", "quality", "bitrate_kbps")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def samples_path(results, experiment, cell, run, code_version):
    """Where a run's sample log is committed under results (docs/results); ValueError when a
    name would leave that directory."""
    for what, v in (("experiment", experiment), ("cell", cell), ("code version", code_version)):
        if not _NAME.fullmatch(str(v)):
            raise ValueError(f"{what} {v!r}: not a name for a sample log")
    d = os.path.join(results, paper(experiment), "data", "samples", experiment, cell)
    return os.path.join(d, f"run{int(run)}-{code_version}.csv.gz")


def player_samples(events):
    """[(t, buffer, quality, bitrate_kbps)] of a player's `sample` events (player/player.js),
    None where the event has no value (a player that did not log quality and bitrate has them
    None throughout)."""
    return [
        (e.get("t"), e.get("buffer"), e.get("quality"), e.get("bitrateKbps"))
        for e in events
        if e.get("type") == "sample"
    ]


def samples_bytes(samples_by_client):
    """The gzip CSV (SAMPLE_COLUMNS) of {client: samples}; byte for byte the same for the same
    samples (no time stamp in the gzip header), so a run published again changes nothing."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(SAMPLE_COLUMNS)
    for name, samples in samples_by_client.items():
        for s in samples:
            w.writerow([name, *("" if v is None else v for v in s)])
    return gzip.compress(buf.getvalue().encode(), mtime=0)


def read_samples(data, where="sample log"):
    """{client: [(t, buffer, quality, bitrate_kbps)]} of samples_bytes' output, numbers as
    written (int where the text is one), None where empty; ValueError naming the line when the
    data is not such a log."""
    try:
        text = gzip.decompress(data).decode()
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise ValueError(f"{where}: not a gzip CSV: {e}") from None
    reader = csv.reader(io.StringIO(text))
    if next(reader, None) != list(SAMPLE_COLUMNS):
        raise ValueError(f"{where}: header must be {','.join(SAMPLE_COLUMNS)}")
    out = {}
    for line in reader:
        if len(line) != len(SAMPLE_COLUMNS) or not line[0]:
            raise ValueError(f"{where}:{reader.line_num}: want {len(SAMPLE_COLUMNS)} fields")
        try:
            values = tuple(None if v == "" else _text_number(v) for v in line[1:])
        except ValueError:
            raise ValueError(f"{where}:{reader.line_num}: a field is not a number") from None
        out.setdefault(line[0], []).append(values)
    return out


def _text_number(text):
    try:
        return int(text)
    except ValueError:
        return float(text)


def csv_rows(doc, samples=None):
    """The committed rows of one run document (run.json); samples: {client name: its samples}
    (player_samples), for the FRAMEWORK columns of the clients that finished."""
    p = doc["params"]
    base = {
        "experiment": doc["experiment"],
        "cell": doc["cell"],
        "topology": p.get("topology", ""),
        "clients": p.get("clients", ""),
        "algorithm": p.get("algorithm", ""),
        "scheduler": p.get("scheduler", ""),
        "rcvbuf_kb": p.get("rcvbuf_kb", ""),
        "delay_diff_ms": p.get("delay_diff_ms", ""),
        "segment_s": p.get("segment_s", ""),
        "video_s": p.get("video_s", ""),
        "run": doc["run"],
        "seed": p.get("seed", ""),
        "code_version": doc["code_version"],
        # runs made before the runner could use Floodlight do not name their controller
        "controller": p.get("controller") or "standalone",
        "background": background_text(doc.get("background")),
        "host_load": doc.get("load", {}).get("host_busy", ""),
        "guest_load": doc.get("load", {}).get("guest_busy", ""),
        "bridge_rtt_ms": bridge_rtt(doc.get("load", {}).get("samples", [])),
    }
    timing = (doc.get("bridge") or {}).get("clients") or {}
    rows = []
    for c in doc["clients"]:
        row = dict(base, client=c["name"], status=c["status"])
        q = c.get("qoe") or {}
        for src, dst in QOE.items():
            row[dst] = q.get(src, "") if c["status"] == "ok" else ""
        a = c.get("paths") or {}
        row["n_paths"] = len(a.get("delays_ms", []))
        row["path_delays_ms"] = ";".join(f"{x:g}" for x in a.get("delays_ms", []))
        row["path_bw_mbps"] = ";".join("" if x is None else f"{x:g}" for x in a.get("bw_mbps", []))
        row["shared_links"] = a.get("shared_links", "")
        own = (samples or {}).get(c["name"])
        if c["status"] == "ok" and own:
            row.update(framework_columns(own))
        b = timing.get(c["name"]) or {}
        row["bridge_lag_ms"] = _median(b.get("end_lag_ms"), 2)
        row["bridge_ratio"] = _median(b.get("duration_ratio"), 3)
        rows.append({k: ("" if row.get(k) is None else row.get(k, "")) for k in COLUMNS})
    return rows


def server_log_check(requests, server_entries):
    """Every completed media/init request a player reports must match one server log entry
    with the same path and byte count; returns (matched, unmatched player requests)."""
    pool = {}
    for e in server_entries:
        if e.get("method") == "GET" and e.get("status") in (200, 206):
            pool.setdefault((e["path"], e["bytes"]), []).append(e)
    matched, missing = 0, []
    for r in requests:
        key = (r["path"], r["bytes"])
        if pool.get(key):
            pool[key].pop()
            matched += 1
        else:
            missing.append(r)
    return matched, missing


# MPTCP counters (nstat's MPTcpExt, without the prefix) that tell why a connection ran plain TCP
FALLBACK_COUNTERS = re.compile(r"Fallback|Drop|Disabled|Blackhole|InfiniteMap|Mismatch|NoMatch")


def failure_details(doc):
    """What lies behind a run's failed checks, one line each, from what the run recorded: the
    runner prints them under the run's line, so a failed run in a log says more than its
    check's name (the run directory, with everything, is often gone by then: CI)."""
    failed = {k for k, ok in doc.get("checks", {}).items() if not ok}
    out = []
    if "every server connection was MPTCP" in failed:
        plain = (doc.get("server_requests") or {}).get("not_mptcp", [])
        peers = sorted({e.get("client", "?") for e in plain})
        out.append(f"plain-TCP requests at the server: {len(plain)} from {', '.join(peers)}")
        fwd = [
            f"{host} {c[1]}"
            for host, conns in sorted((doc.get("forwarder_connections") or {}).items())
            for c in conns
            if c[2] is not True
        ]
        if fwd:
            out.append("forwarder connections not MPTCP: " + ", ".join(fwd))
        counters = [
            f"{host} {name}={v}"
            for host, cs in sorted((doc.get("mptcp_counters") or {}).items())
            for name, v in sorted(cs.items())
            if FALLBACK_COUNTERS.search(name)
        ]
        out.append("fallback counters: " + (", ".join(counters) if counters else "none moved"))
    if "no connection was left from an earlier run" in failed:
        left = (doc.get("sockets_before") or {}).get("open", {})
        counts = ", ".join(f"{h}: {len(s)}" for h, s in sorted(left.items()))
        out.append(f"still open before the run: {counts}")
    if "server log has every completed request" in failed:
        miss = (doc.get("server_requests") or {}).get("missing", [])
        names = ", ".join(f"{r['path']} ({r['bytes']} B)" for r in miss[:3])
        out.append(f"requests the server did not log: {names}" + (" ..." if len(miss) > 3 else ""))
    if "subflow packets went through exactly their assigned switches" in failed:
        pc = doc.get("path_check") or {}
        out.append(f"subflows: {pc.get('exact')} on their path, wrong: {pc.get('wrong')}")
    if "every client finished" in failed:
        for c in doc.get("clients", []):
            if c.get("status") != "ok":
                out.append(f"{c.get('name')}: {c.get('status')} {c.get('error') or ''}".rstrip())
    return out


# The committed table of attempts (video_run.py --publish): one row per attempt at a run, ok or
# failed, so that the failure counts the docs quote can be recomputed. client_fallbacks and
# server_fallbacks sum the FALLBACK_COUNTERS that moved on the clients and on the other hosts,
# fallback_counters names them ("c5 MPCapableDataFallback=1; server DssFallback=1");
# resent_syns counts the retransmitted MP_CAPABLE SYNs the controller sent on (RESENT_SYN).
ATTEMPT_COLUMNS = (
    "experiment,cell,run,attempt,code_version,started,status,failed_checks,client_fallbacks,"
    "server_fallbacks,fallback_counters,resent_syns,error,kernel_taints,kernel_warnings,"
    "reconnects,ended"
).split(",")
# The controller's log line when it sends on a retransmitted MP_CAPABLE SYN (core Handshakes:
# "... retransmitted MP_CAPABLE SYN of connection N [decided ..., packet-out ...]")
RESENT_SYN = re.compile(r"retransmitted MP_CAPABLE SYN of connection \d+ \[")


def attempt_row(doc, attempt, controller_log):
    """The ATTEMPT_COLUMNS row of one attempt: its run.json document, its directory's name
    (run<k> for the current attempt, run<k>-<time> for one moved to failed/) and the text of its
    controller.log ("" when there is none)."""
    clients = {c.get("name") for c in (doc.get("network") or {}).get("clients", [])}
    fallbacks, named = {True: 0, False: 0}, []
    for host, counters in sorted((doc.get("mptcp_counters") or {}).items()):
        moved = {n: v for n, v in sorted(counters.items()) if FALLBACK_COUNTERS.search(n) and v}
        fallbacks[host in clients] += sum(moved.values())
        named += [f"{host} {n}={v}" for n, v in moved.items()]
    failed = sorted(name for name, ok in (doc.get("checks") or {}).items() if not ok)
    return {
        "experiment": doc.get("experiment", ""),
        "cell": doc.get("cell", ""),
        "run": doc.get("run", ""),
        "attempt": attempt,
        "code_version": doc.get("code_version", ""),
        "started": doc.get("started", ""),
        "status": doc.get("status", ""),
        "failed_checks": "; ".join(failed),
        "client_fallbacks": fallbacks[True],
        "server_fallbacks": fallbacks[False],
        "fallback_counters": "; ".join(named),
        "resent_syns": len(RESENT_SYN.findall(controller_log)),
        "error": " ".join(str(doc.get("error") or "").split())[:160],
        # the guest kernel's trouble during the run (kernel.health_change); "" where the run
        # predates the record or ended before it was taken
        "kernel_taints": (doc.get("guest_kernel") or {}).get("new_taints", ""),
        "kernel_warnings": len(doc["guest_kernel"]["new_lines"]) if "guest_kernel" in doc else "",
        # connections the forwarders made again after a fallback in the handshake; "" where the
        # forwarders did not yet count them
        "reconnects": _reconnects(doc),
        # with started, the attempt's machine time ("" in tables written before it was kept)
        "ended": doc.get("ended", ""),
    }


def _reconnects(doc):
    conns = [c for cs in (doc.get("forwarder_connections") or {}).values() for c in cs]
    counted = [c[4] for c in conns if len(c) > 4 and c[4] is not None]
    return sum(counted) if counted else ""


def throughput_rows(doc, series_by_client):
    """cell,run,client,second,kbps rows: each player's throughput per second (the harness's
    series, bytes spread over each request's transfer); series_by_client {name: [[s, kbps]]}."""
    return [
        {"cell": doc["cell"], "run": doc["run"], "client": name, "second": s, "kbps": kbps}
        for name, series in series_by_client.items()
        for s, kbps in series
    ]


def link_rows(doc, descriptor, min_peak=0.05):
    """cell,run,link,second,utilisation rows from the controller's link loads (sampled every
    2 s): load over capacity, for the links whose peak utilisation reached min_peak."""
    names = doc["links"]["names"]
    caps = [float(x.get("capacityMbps") or 0) for x in descriptor["links"]]
    rows = []
    for i, name in enumerate(names):
        if not caps[i]:
            continue
        series = [(x["t"], x["load"][i] / caps[i]) for x in doc["links"]["series"]]
        if series and max(u for _t, u in series) >= min_peak:
            rows += [
                {"cell": doc["cell"], "run": doc["run"], "link": name, "second": t,
                 "utilisation": round(u, 4)}
                for t, u in series
            ]  # fmt: skip
    return rows


def bridge_timing(requests, responses, clock_offset_s):
    """How the host-guest bridge shifts what a player measures. requests: the player's
    completed requests as (first byte, end, body bytes) in host Unix time; responses: the same
    responses as the forwarder saw them leave the MPTCP connection, (first, last, bytes) in
    guest time; clock_offset_s: guest clock minus host clock. Each request is paired with the
    unused response of the same size that ended closest before it. Returns the pairs' end lags
    (player end - forwarder last, ms) and duration ratios (player / forwarder), plus how many
    requests found no response."""
    pool = sorted((f - clock_offset_s, last - clock_offset_s, n) for f, last, n in responses)
    used, lags, ratios, unmatched = set(), [], [], 0
    for first, end, n in sorted(requests):
        best = None
        for i, (_rf, rl, rn) in enumerate(pool):
            if i in used or rn != n or rl > end + 1.0:
                continue
            if best is None or rl > pool[best][1]:
                best = i
        if best is None:
            unmatched += 1
            continue
        used.add(best)
        rf, rl, _ = pool[best]
        lags.append(round((end - rl) * 1000, 2))
        if rl > rf and end > first:
            ratios.append(round((end - first) / (rl - rf), 3))
    return {"end_lag_ms": lags, "duration_ratio": ratios, "unmatched": unmatched}

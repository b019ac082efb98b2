#!/usr/bin/python3
"""Run the GA and QoMRA papers' video experiments: the controller choosing paths in an emulated
network with real link delays, real dash.js players, QoE per algorithm.

    testbed/video/video_run.py [--experiment demo|ci|ga-topo|ga-sched] [--runs K] [--video S]
        [--cells PATTERNS] [--only-runs K,...] [--results DIR] [--local] [--capture] [--dry-run]
        [--publish]
    testbed/video/video_run.py --topology T --clients N --algorithms A,B [--runs K] [--video S] ...

Per batch (a network, mpqoe.video_matrix) it writes the descriptor (`bin/mpqoe topology with-clients
... --links paper`: the paper's drawn link bandwidths and delays), generates the content (GA
ladder 1500/2000/2500/2600 kbit/s in 4 s segments), boots the testbed guest with the network
(guest_agent.py; `--local` runs it on this machine, whose kernel must have netem) and, per run,
starts a fresh controller (`bin/mpqoe controller --algorithm A`), plays N dash.js clients in
headless Chromium on this machine, joining every 4 s, each through its own forwarder inside
its Mininet host, and records RESULTS/<experiment>/<cell>/run<k>/run.json: per-client QoE, the
controller's assignment (paths, their delays and bottlenecks, shared links), link loads over
time, flow counters, versions, seed, machine load, and the checks of the run.

Resumable: a run whose run.json says "ok" is skipped; a failed one is moved to failed/ and run
again (at once with --retries). RESULTS/<experiment>/manifest.json says what is ok, failed or
missing, and is "partial" until every selected run is ok. --publish writes the ok runs'
compact table (record.COLUMNS) to docs/results/ga-paper/data/<experiment>.csv, with the
players' 1 s sample logs under its samples/ (docs/video-experiments.md, "Two QoE metrics"),
joined to the runs the table has (a run published again replaces itself): so a sweep too long
for one machine's time is made in parts, from checkouts of one commit, each part published
after it.
Exit 0 when every selected run is ok, 1 otherwise, 2 on bad arguments (one line).
"""

import argparse
import datetime
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import session as ss
from mpqoe import campaign, dash_harness, files, floodlight, kernel
from mpqoe import results as shared
from mpqoe import video_matrix as mx
from mpqoe import video_record as record
from mpqoe.descriptor import override_links
from mpqoe.rest import ERRORS
from mpqoe.runs import ONLY_RUNS_HELP, only_runs

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


SCHEMA = "mpqoe-video-run/1"
FAMILY = "video"  # its kind on the campaign interface (mpqoe.campaign_video)
HOST_CPU = campaign.host_cpu()  # the players run on this host: their CPU is the run's
DEFAULT_RESULTS = os.path.join(REPO, "build", "video")
PUBLISHED = os.path.join(REPO, "docs", "results")  # where --publish writes (record.published)
GEN_CONTENT = os.path.join(REPO, "dashjs-harness", "content", "gen_content.py")
# Machine time beyond a run's video and joins: start-up, records and the stalls, which grow with
# the clients (measured here, 120 s videos: 1.5 min a run with 5 clients on CompuServe, 2 min on
# Custom12 and Jellyfish; 60 s videos: 20 s with the delay sweep's one client).
BOOT_S, RUN_BASE_S, RUN_PER_CLIENT_S = 150, 20, 20
# The calibration (docs/results/ga-paper.md): 5 clients on a generous network all played the
# top bitrate without stalls on this 2-core machine; 10 did not.
MAX_CLIENTS = 5  # guest boot + network build; controller, players, records
PLAYERS = mx.PLAYERS
ALGORITHMS = ("ga", "ga-tuned", "exact", "qomra", "pd-bw", "pd-delay", "fd-bw", "fd-delay", "none")


class Usage(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, as every bad flag of the project
        raise Usage(message)


def parse_args(argv):
    p = Parser(description=__doc__.split("\n")[0])
    p.add_argument("--experiment", default="demo", choices=sorted(mx.EXPERIMENTS))
    p.add_argument("--topology", help="one batch of this topology instead of --experiment's")
    p.add_argument("--clients", type=int, help="clients of that batch")
    p.add_argument("--algorithms", help="comma-separated algorithms of that batch")
    p.add_argument(
        "--attach", metavar="NAME",
        help="that batch's hosts as the topology's named attachment says (e.g. framework: the "
        "GA paper's authors' wiring; topologies/attachments/)",
    )  # fmt: skip
    p.add_argument(
        "--runs", type=int,
        help="runs per cell (default: the experiment's, 1 for most; a design with several link "
        "draws spreads a cell's runs over them)",
    )  # fmt: skip
    p.add_argument("--only-runs", help=ONLY_RUNS_HELP)
    p.add_argument(
        "--retries", type=int, default=0,
        help="make a run that failed its checks again, at once, up to this many times "
        "(default 0: the next invocation makes it); every failed attempt stays in failed/",
    )  # fmt: skip
    p.add_argument("--video", type=float, help="video length in s (default: the experiment's)")
    p.add_argument("--seed", type=int, default=1, help="link draws and client placement seed")
    p.add_argument(
        "--player", choices=PLAYERS,
        help="the players' profile (dashjs-harness/player/players.json): paper, dash.js "
        "2.5.0 as the GA paper's authors ran it, or modern, dash.js 5.2.1's defaults "
        "(default: the experiment's; demo, ci and the *-paper experiments play paper)",
    )  # fmt: skip
    p.add_argument("--cells", help="comma-separated shell patterns over cell names")
    p.add_argument("--results", default=DEFAULT_RESULTS, help=f"(default {DEFAULT_RESULTS})")
    p.add_argument(
        "--max-clients", type=int, default=MAX_CLIENTS,
        help=f"leave out batches with more clients (default {MAX_CLIENTS}: what this 2-core "
        "machine sustains, docs/results/ga-paper.md)",
    )  # fmt: skip
    p.add_argument("--local", action="store_true", help="network on this machine (needs netem)")
    p.add_argument(
        "--controller", choices=("standalone", "floodlight"), default="standalone",
        help="bin/mpqoe controller (default), or Floodlight with the mpqoe module "
        "(docs/floodlight.md)",
    )  # fmt: skip
    p.add_argument("--floodlight-jar", help="your Floodlight jar (with --controller floodlight)")
    p.add_argument(
        "--capture", action="store_true",
        help="diagnostics: tcpdump of the video port's headers at the servers and at each "
        "client's first interface, per run into its capture/ (not for measured runs: it loads "
        "the guest)",
    )  # fmt: skip
    p.add_argument("--dry-run", action="store_true", help="print the plan and its duration")
    p.add_argument("--publish", action="store_true", help="write the committed per-run table")
    p.add_argument("--publish-only", action="store_true", help="only that: run nothing")
    a = p.parse_args(argv)
    if a.runs is None:
        a.runs = mx.design_runs(a.experiment) or 1
    if not 1 <= a.max_clients <= 244:
        raise Usage("--max-clients: want 1..244")
    if not 1 <= a.runs <= 100:
        raise Usage("--runs: want 1..100")
    if not 0 <= a.retries <= 5:
        raise Usage("--retries: want 0..5")
    try:
        a.only = only_runs(a.only_runs, a.runs)
    except ValueError as e:
        raise Usage(str(e)) from None
    if a.video is not None and not 8 <= a.video <= 3600:
        raise Usage("--video: want 8..3600 s")
    if a.attach is not None and not a.topology:
        raise Usage("--attach goes with --topology")
    if a.topology or a.clients or a.algorithms:
        if not (a.topology and a.clients and a.algorithms):
            raise Usage("--topology, --clients and --algorithms go together")
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", a.topology):
            raise Usage(f"--topology: bad name {a.topology!r}")
        known = embedded_topologies()
        if a.topology not in known:
            raise Usage(f"--topology: unknown topology {a.topology!r} (one of {', '.join(known)})")
        algos = [x.strip() for x in a.algorithms.split(",") if x.strip()]
        bad = [x for x in algos if x not in ALGORITHMS]
        if bad or not algos:
            known = ", ".join(ALGORITHMS)
            raise Usage(f"--algorithms: unknown {', '.join(bad) or '(none)'} (one of {known})")
        if not 1 <= a.clients <= 64:
            raise Usage("--clients: want 1..64")
        b = mx.Batch(a.experiment, a.topology, a.clients, a.video or 60.0, seed=a.seed,
                     links="auto", player=mx.default_player(a.experiment),
                     attach=a.attach)  # fmt: skip
        a.plan = [(b, [mx.Cell(b, x) for x in algos])]
    else:
        a.plan = mx.experiment_plan(a.experiment, a.video)
    if a.controller == "floodlight":
        try:
            floodlight.require_jars(a.floodlight_jar or "")
        except ValueError as e:
            raise Usage(f"--floodlight-jar: {e}") from None
        a.plan = mx.with_controller(a.plan, "floodlight")
    elif a.floodlight_jar:
        raise Usage("--floodlight-jar goes with --controller floodlight")
    if a.player:
        a.plan = mx.with_batch(a.plan, player=a.player)
    if a.local:
        from mpqoe import topo  # noqa: PLC0415 - Mininet, only where the network runs here

        if not topo.netem_available():
            raise Usage("--local: this kernel has no netem, so the links' delays cannot be "
                        "applied (run without --local: the testbed guest has it)")  # fmt: skip
    if a.topology:
        check_descriptor(a.plan[0][0])
    a.plan = mx.select(a.plan, a.cells)
    if not a.plan:
        raise Usage(f"--cells {a.cells!r} matches no cell")
    a.plan, big = mx.limit_clients(a.plan, a.experiment, a.max_clients)
    if big:
        print(f"video: left out (more than --max-clients {a.max_clients}): {', '.join(big)}")
    return a


def write_descriptor(b, path):
    """`bin/mpqoe topology with-clients` for batch b into path; its first error line, or None."""
    r = subprocess.run(
        [ss.MPQOE, "topology", "with-clients", *b.with_clients_args(), "-o", path],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if not r.returncode:
        return None
    msg = (r.stderr or r.stdout).strip().splitlines()
    return msg[0] if msg else f"exit {r.returncode}"


def check_descriptor(b):
    """Usage when `topology with-clients` refuses the batch (e.g. more clients than the
    topology lists)."""
    with tempfile.TemporaryDirectory() as tmp:
        err = write_descriptor(b, os.path.join(tmp, "d.json"))
    if err:
        raise Usage(f"--topology {b.topology} --clients {b.clients}: {err}")


def embedded_topologies():
    out = subprocess.run(
        [ss.MPQOE, "topology", "list"], capture_output=True, text=True, check=False
    )
    return [line.split()[0] for line in out.stdout.splitlines() if line.strip()]


def run_dir(results, cell, k):
    return os.path.join(results, cell.batch.experiment, cell.name, f"run{k}")


def run_ok(path):
    doc = files.read_json(os.path.join(path, "run.json"))
    return bool(doc) and doc.get("status") == "ok"


def todo(args):
    """[(batch, [(cell, k)])] of the runs still to make (mpqoe.campaign's resume: what is not
    ok), of each batch's run numbers, in the batch's order (interleaved by k, or its recorded
    random order)."""
    out = []
    for b, cells in args.plan:
        left = campaign.todo(cells, b.runs(args.only), lambda c, k: run_status(args, c, k))
        if left:
            out.append((b, b.order(left)))
    return out


def estimate_s(plan):
    total = 0
    for b, runs in plan:
        per = b.video_s + mx.JOIN_INTERVAL_S * (b.clients - 1)
        per += RUN_BASE_S + RUN_PER_CLIENT_S * b.clients
        total += BOOT_S + per * len(runs)
    return total


def network_timeout_s(batch, n_runs, retries):
    """The network side's own time limit (it stops itself after this, should the runner be
    lost): twice the estimate of the batch with every run retried as often as allowed, and
    at least the two hours a short batch always had. A fixed two hours cut off the last run
    of a batch of six 540 s runs that had needed one retry. Whole seconds: testbed/run takes
    no fraction (a batch's lengths are floats)."""
    est = 2 * estimate_s([(batch, range(n_runs * (retries + 1)))])
    return max(ss.NETWORK_TIMEOUT_S, math.ceil(est))


def fmt_s(s):
    return f"{s / 3600:.1f} h" if s >= 5400 else f"{s / 60:.0f} min"


def run_status(args, cell, k):
    """The run's status as its record says ("ok", "failed"), None when it has none."""
    doc = files.read_json(os.path.join(run_dir(args.results, cell, k), "run.json"))
    return None if not doc else "ok" if doc.get("status") == "ok" else "failed"


def write_manifest(args, note=""):
    """Each experiment's manifest (mpqoe.campaign's format): per cell its ok, failed and
    missing runs of 1..--runs, the attempts recorded, "partial" until every run is ok."""
    per = {"ok": [], "failed": [], "missing": []}
    attempts = []  # the failed attempts kept under the cells' failed/
    for e in sorted({b.experiment for b, _c in args.plan}):
        cells = [c for b, cs in args.plan if b.experiment == e for c in cs]
        by_name = {c.name: c for c in cells}
        st = campaign.state(
            list(by_name), args.runs, lambda n, k, c=by_name: run_status(args, c[n], k)
        )
        versions, kept_here = set(), []
        for name, s in st.items():
            for key in per:
                per[key] += [f"{name}/run{k}" for k in s[key]]
            for k in s["ok"] + s["failed"]:
                doc = files.read_json(
                    os.path.join(run_dir(args.results, by_name[name], k), "run.json")
                )
                versions.add((doc or {}).get("code_version"))
            kept = os.path.join(args.results, e, name, "failed")
            if os.path.isdir(kept):
                kept_here += [f"{name}/{x}" for x in sorted(os.listdir(kept))]
        attempts += kept_here
        # failed_attempts: the failed attempts' directories, kept for a look
        campaign.write_manifest(args.results, FAMILY, e, args.runs, st, code_versions=versions,
                                note=note, failed_attempts=kept_here)  # fmt: skip
    return {**per, "attempts": attempts}


def record_attempt(args, cell, k, doc):
    """Record one attempt at a run (mpqoe.campaign), ok or failed, with why."""
    campaign.record_attempt(
        args.results, cell.batch.experiment, cell.name, k, doc.get("status") or "failed",
        doc.get("error") or "", family=FAMILY, code_version=doc.get("code_version") or "",
        kernel=doc.get("kernel") or "", cpu=HOST_CPU,
        record=os.path.relpath(os.path.join(run_dir(args.results, cell, k), "run.json"),
                               args.results),
    )  # fmt: skip


def now():
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def prepare_batch(b, workdir):
    """The batch's descriptor (in workdir) and content directory."""
    os.makedirs(workdir, exist_ok=True)
    desc = os.path.join(workdir, "descriptor.json")
    err = write_descriptor(b, desc)
    if err:
        raise ss.SessionError(f"topology with-clients: {err}")
    if b.link_overrides:
        try:
            d = override_links(files.read_json(desc), b.overrides())
        except ValueError as e:
            raise ss.SessionError(f"link overrides: {e}") from None
        files.write_json(desc, d)
    r = subprocess.run(
        ["/usr/bin/python3", GEN_CONTENT, "--set", b.content_set, "--duration", f"{b.video_s:g}",
         "--segment", f"{b.segment_s:g}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if r.returncode:
        raise ss.SessionError(f"content: {r.stderr.strip()[-300:]}")
    return desc, r.stdout.strip()


def one_run(args, net, cell, k, desc_path, content_dir, position=None):
    """Runs one cell-run on a ready network, the position-th (from 0) of its batch's order;
    returns its document (status ok or failed)."""
    d = run_dir(args.results, cell, k)
    if os.path.isdir(d):
        old = os.path.join(os.path.dirname(d), "failed", f"run{k}-{int(time.time())}")
        os.makedirs(os.path.dirname(old), exist_ok=True)
        shutil.move(d, old)
    os.makedirs(d)
    descriptor = files.read_json(desc_path)
    doc = {
        "schema": SCHEMA, "experiment": cell.batch.experiment, "cell": cell.name, "run": k,
        "params": cell.params(), "code_version": shared.code_version(), "started": now(),
        "status": "failed", "error": None, "checks": {}, "network": net.ready,
        "descriptor": os.path.relpath(desc_path, args.results),
        "content": os.path.basename(content_dir),
        "order": {"seed": cell.batch.order_seed, "position": position},
    }  # fmt: skip
    b = cell.batch
    try:
        net.agent.call(
            "configure", scheduler=cell.scheduler, rcvbuf=cell.rcvbuf_kb * 1024, tcp=cell.tcp
        )
        ctl_log = os.path.join(d, "controller.log")
        kind = b.controller
        with ss.controller(
            kind, desc_path, cell, net.of_port, net.rest_port, ctl_log, args.floodlight_jar
        ) as ctl:
            ss.wait_connected(net.agent, len(descriptor["switches"]))
            doc["controller_prepare"] = ss.prepare(ctl, net.agent, descriptor)
            doc["sockets_before"] = ss.wait_closed(net.agent, kill=True)
            log_from = net.agent.call("log", which="server", since=0)["next"]
            counters_before = net.agent.call("mptcp")
            health_before = net.agent.call("kernel")
            doc["kernel"] = net.ready.get("kernel", "")  # the guest's uname -r
            names = [c["name"] for c in net.ready["clients"]]
            fwd_from = {n: net.agent.call("log", which=n, since=0)["next"] for n in names}
            sampler = ss.Sampler(ctl, net.agent, segment_routing=cell.segment_routing)
            sampler.start()
            background = None
            if b.background:
                src, dst, start_s = b.background
                background = threading.Timer(
                    start_s, net.agent.call, args=("background",),
                    kwargs={"action": "start", "from": src, "to": dst},
                )  # fmt: skip
                background.start()
                doc["background"] = {"from": src, "to": dst, "start_s": start_s}
            if args.capture:
                net.agent.call("capture", action="start")
            mpd = f"/content/{os.path.basename(content_dir)}/manifest.mpd"
            rc = ss.play(
                net.client_urls, mpd, b, mx.JOIN_INTERVAL_S,
                os.path.join(d, "players"), os.path.join(d, "players.log"), player=b.player,
            )  # fmt: skip
            if background is not None:
                background.cancel()
                net.agent.call("background", action="stop")
            # the players' connections close while this run's controller still routes them
            doc["sockets_after"] = ss.wait_closed(net.agent, timeout=15)
            if args.capture:
                doc["capture"] = save_capture(net, d, f"capture-{cell.name}-run{k}")
            flows = net.agent.call("flows")["flows"]
            sampler.finish(flows)
            doc["players_exit"] = rc
            doc["rest"] = {w: ctl.get(w) for w in ("clients", "connections", "stats")}
            doc["rest"]["assigned_first"] = sampler.assignments
            after = net.agent.call("mptcp")
            doc["mptcp_counters"] = {
                h: {
                    k: v
                    for k, v in kernel.counter_deltas(counters_before[h], after[h]).items()
                    if v
                }
                for h in after
                if h != "ok"
            }
            # a warning or oops in the guest's kernel during the run (its health before and after)
            doc["guest_kernel"] = kernel.health_change(health_before, net.agent.call("kernel"))
            server_log = net.agent.call("log", which="server", since=log_from)["lines"]
            time.sleep(1)  # the forwarders write a connection's line once it has closed
            fwd_log = {n: net.agent.call("log", which=n, since=fwd_from[n])["lines"] for n in names}
        fwd = {n: json_lines(lines) for n, lines in fwd_log.items()}
        doc["bridge"] = bridge(d, net.ready["clients"], fwd, sampler.load)
        doc["forwarder_connections"] = {
            n: [
                [
                    r.get("start"),
                    r.get("local"),
                    r.get("mptcp"),
                    r.get("error"),
                    r.get("reconnects"),
                ]
                for r in recs
            ]
            for n, recs in fwd.items()
        }
        finish_doc(doc, d, descriptor, sampler, flows, server_log)
    except (ss.SessionError, RuntimeError, *ERRORS) as e:
        doc["error"] = str(e)
    doc["ended"] = now()
    files.write_json(os.path.join(d, "run.json"), doc)
    return doc


def save_capture(net, d, rel):
    """Stops the run's capture and moves its pcaps from the network's work directory into the
    run's capture/; {pcap: bytes}."""
    got = net.agent.call("capture", action="stop", dir=net.agent_path(rel))["capture"]
    src, dest = os.path.join(net.workdir, rel), os.path.join(d, "capture")
    os.makedirs(dest, exist_ok=True)
    for name in got:
        shutil.move(os.path.join(src, name), os.path.join(dest, name))
    shutil.rmtree(src, ignore_errors=True)
    return got


def finish_doc(doc, d, descriptor, sampler, flows, server_log):
    """Per-client QoE and assignment, loads, and the run's checks; status ok when they hold."""
    rows = record.harness_rows(open(os.path.join(d, "players", "clients.csv")).read())
    names = [c["name"] for c in doc["network"]["clients"]]
    assigned = sampler.assignments
    clients, requests = [], []
    for r in rows:
        name = names[r["client"]]
        qoe = {k: _num(v) for k, v in r.items() if k in record.QOE}
        a = assigned.get(name)
        paths = record.path_metrics(descriptor, a["paths"]) if a else None
        clients.append({"name": name, "status": r["status"], "error": r.get("error") or None,
                        "qoe": qoe, "assignment": a, "paths": paths})  # fmt: skip
        cj = files.read_json(os.path.join(d, "players", f"client-{r['client']}.json"))
        for e in (cj.get("qoe") or {}).get("events", []):
            if e.get("type") == "request" and e.get("url") and e.get("bytes"):
                requests.append({"path": urllib.parse.urlparse(e["url"]).path, "bytes": e["bytes"]})
    doc["clients"] = clients
    doc["links"] = {
        "series": sampler.links,
        "names": [f"{x['a']}-{x['b']}" for x in descriptor["links"]],
    }
    doc["load"] = {
        "samples": sampler.load,
        "host_busy": record.mean_busy(sampler.load, "host"),
        "guest_busy": record.mean_busy(sampler.load, "guest"),
    }
    doc["sampler_errors"] = sampler.errors
    entries = json_lines(server_log)
    matched, missing = record.server_log_check(requests, entries)
    algo = doc["params"]["algorithm"]
    checks = {
        "every client finished": all(c["status"] == "ok" for c in clients),
        "server log has every completed request": not missing and matched > 0,
        "no connection was left from an earlier run": not doc["sockets_before"]["open"],
        "every server connection was MPTCP": all(e.get("mptcp") for e in entries)
        if not doc["params"]["tcp"]
        else True,
    }
    if algo not in ("none", "tcp"):
        checks["the controller assigned paths to every client"] = all(
            c["assignment"] for c in clients
        )
    diff = doc["params"].get("delay_diff_ms")
    if diff is not None:
        ds = sorted((c["paths"] or {}).get("delays_ms", []) for c in clients)
        checks["each client has two paths differing by the cell's delay"] = all(
            len(x) == 2 and abs(x[1] - x[0] - diff) < 0.01 for x in ds
        )
    good, bad, idle = sampler.path_check()
    doc["path_check"] = {"exact": good, "wrong": bad, "never_counted": idle}
    if not doc["params"]["tcp"]:
        checks["subflow packets went through exactly their assigned switches"] = (
            good > 0 and not bad
        )
    doc["checks"] = checks
    doc["server_requests"] = {
        "matched": matched,
        "missing": missing[:10],
        "entries": len(entries),
        # the server's own lines (times, peers) of requests that came over plain TCP, to be
        # matched with the controller's log when a handshake went wrong
        "not_mptcp": [e for e in entries if not e.get("mptcp")][:10],
    }
    doc["flows"] = flow_summary(flows)  # at the end of the run
    needed = ("avg_bitrate_kbps", "switches_ga", "switches_count", "outage_s", "startup_delay_s")
    checks["every finished client's QoE is complete"] = all(
        all(c["qoe"].get(k) is not None for k in needed) for c in clients if c["status"] == "ok"
    )
    # A player gets twice the video's length plus 60 s: one that did not finish in that time
    # points at the set-up, not at a QoE outcome, so the run is failed (and run again).
    infra = [k for k, ok in checks.items() if not ok]
    doc["status"] = "ok" if not infra else "failed"
    if infra:
        doc["error"] = "checks failed: " + "; ".join(infra)
        doc["failure_details"] = record.failure_details(doc)


def json_lines(lines):
    """A JSON-lines log (the server's: one line per request; a forwarder's: one per connection
    it closed, with start in guest time, local address of the MPTCP side, MPTCP or not, error,
    responses) as records; unreadable lines skipped."""
    out = []
    for line in lines:
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def bridge(d, clients, fwd, load):
    """record.bridge_timing per client: the players' timing of each response against the
    forwarder's (fwd: {client: json_lines}), in the host's clock (the guest's offset:
    the median of the run's samples)."""
    offsets = sorted(s["guest"]["clock_offset_s"] for s in load if "clock_offset_s" in s["guest"])
    if not offsets:
        return None
    offset = offsets[len(offsets) // 2]
    out = {"clock_offset_s": offset, "clients": {}}
    for i, c in enumerate(clients):
        responses = [
            (f, last, n)
            for rec in fwd.get(c["name"], [])
            for f, last, n, _st in rec.get("responses", [])
        ]
        cj = files.read_json(os.path.join(d, "players", f"client-{i}.json")) or {}
        q = cj.get("qoe") or {}
        t0 = (q.get("meta") or {}).get("t0")
        if t0 is None:
            continue
        requests = [
            (t0 / 1000 + e["firstByte"], t0 / 1000 + e["end"], e["bytes"])
            for e in q.get("events", [])
            if e.get("type") == "request" and e.get("firstByte") is not None and e.get("end")
        ]
        out["clients"][c["name"]] = record.bridge_timing(requests, responses, offset)
    return out


def flow_summary(flows):
    """{cookie: {switch: packets}} of the rules that counted packets."""
    out = {}
    for sw, fl in flows.items():
        for f in fl:
            if f.get("n_packets"):
                out.setdefault(f"0x{f['cookie']:x}", {})[sw] = f["n_packets"]
    return out


def _num(v):
    try:
        return float(v) if v not in ("", None) else None
    except ValueError:
        return v


def run_batch(args, b, runs, progress):
    # jobs of one batch that make different runs may run at once (on a cluster): each boots
    # its own network, in its own directory
    every = args.only == list(range(1, args.runs + 1))
    part = "" if every else ".runs-" + "-".join(map(str, args.only))
    workdir = os.path.join(args.results, b.experiment, "batches", b.name + part)
    desc, content = prepare_batch(b, workdir)
    print(f"video: batch {b.name}: {len(runs)} runs, booting the network", flush=True)
    timeout = network_timeout_s(b, len(runs), args.retries)
    with ss.Network(desc, content, workdir, local=args.local, timeout=timeout) as net:
        print(f"video: network ready ({net.ready.get('built')})", flush=True)
        for position, (cell, k) in enumerate(runs):
            for attempt in range(args.retries + 1):
                doc = one_run(args, net, cell, k, desc, content, position)
                gone = None
                if doc["status"] != "ok" and not net.answers():
                    # the network side died: say why in the run's record, and stop the batch
                    # rather than fail its remaining runs at once on the broken connection
                    gone = net.gone_cause()
                    doc["error"] = f"{doc.get('error') or 'failed'}; {gone}"
                    files.write_json(os.path.join(run_dir(args.results, cell, k), "run.json"), doc)
                final = doc["status"] == "ok" or attempt == args.retries or gone is not None
                progress(cell, k, doc, final)
                if gone is not None:
                    raise ss.SessionError(gone)
                if final:
                    break


def collect_runs(args, everything=False):
    """{experiment: [(run document, {client name: samples})]} of the ok runs of each experiment
    of the plan: of the plan's cells and runs, or with everything, of every cell and run under
    RESULTS/<experiment>/ (what the committed table holds: runs made by other invocations, e.g.
    through Floodlight, too)."""
    by_exp = {}
    for exp in sorted({b.experiment for b, _c in args.plan}):
        if everything:
            dirs = stored_runs(args.results, exp)
        else:
            dirs = [
                run_dir(args.results, c, k)
                for b, cells in args.plan
                if b.experiment == exp
                for c in cells
                for k in range(1, args.runs + 1)
            ]
        for d in dirs:
            if run_ok(d):
                doc = files.read_json(os.path.join(d, "run.json"))
                by_exp.setdefault(exp, []).append((doc, run_samples(d, doc)))
    return by_exp


def run_samples(d, doc):
    """{client name: [(t, buffer, quality, bitrate)]} of a run's players' 1 s samples
    (players/client-<i>.json of the network's i-th client, record.player_samples)."""
    out = {}
    for i, c in enumerate((doc.get("network") or {}).get("clients") or []):
        cj = files.read_json(os.path.join(d, "players", f"client-{i}.json")) or {}
        samples = record.player_samples((cj.get("qoe") or {}).get("events") or [])
        if samples:
            out[c["name"]] = samples
    return out


def run_rows(doc, samples):
    """record.csv_rows of a run; ValueError naming the run when its samples are malformed."""
    try:
        return record.csv_rows(doc, samples)
    except ValueError as e:
        raise ValueError(f"{doc['experiment']} {doc['cell']} run{doc['run']}: {e}") from None


def collect(args, everything=False):
    """The ok runs' rows (record.COLUMNS) of each experiment of the plan (collect_runs)."""
    return {
        exp: [r for doc, samples in runs for r in run_rows(doc, samples)]
        for exp, runs in collect_runs(args, everything).items()
    }


# Where a player profile's dash.js build lives (dashjs-harness/player/players.json), which the
# guest's video server serves (guest_agent.start_server); without it every run of a batch playing
# that profile fails with a less helpful message.
DASHJS = dash_harness.player_build


def missing_dependency(plan):
    """One line naming what `make video-deps` would install or build and is absent, or None:
    checked before any guest boots, so that a missing module cannot fail every run of it."""
    default = dash_harness.players()["default"]
    for name in sorted({b.player or default for b, _runs in plan}):
        try:
            build = DASHJS(name)
        except dash_harness.UsageError as e:
            return str(e)
        if not os.path.isdir(build):
            where = os.path.relpath(build, REPO)
            return f"dash.js is not installed for player {name} ({where}): run `make video-deps`"
    schedulers = sorted({c.scheduler for _b, runs in plan for c, _k in runs}
                        - set(kernel.BUILTIN_SCHEDULERS))  # fmt: skip
    gone = kernel.unbuilt(schedulers)
    if gone:
        return f"scheduler modules not built: {', '.join(gone)}: run `make video-deps`"
    return None


def main(argv):
    try:
        args = parse_args(argv)
    except Usage as e:
        print(f"video_run.py: {e}", file=sys.stderr)
        return 2
    if args.publish_only:
        return publish(args)
    plan = todo(args)
    n = sum(len(r) for _b, r in plan)
    print(
        f"video: {n} runs to make in {len(plan)} batches, about {fmt_s(estimate_s(plan))}",
        flush=True,
    )
    if args.dry_run:
        for b, runs in plan:
            print(
                f"  {b.name}: "
                + ", ".join(sorted({c.name for c, _k in runs}))
                + f" ({len(runs)} runs)"
            )
        return 0
    missing = missing_dependency(plan)
    if missing:
        print(f"video_run.py: {missing}", file=sys.stderr)
        return 2
    t0, done = time.monotonic(), {"ok": 0, "failed": 0}

    tried = set()  # (cell, k) of the attempts made and recorded

    def progress(cell, k, doc, final=True):
        record_attempt(args, cell, k, doc)
        tried.add((cell.name, k))
        why = f" ({doc['error']})" if doc["error"] else ""
        details = "".join(f"\n    {x}" for x in doc.get("failure_details", []))
        if not final:
            print(f"video: {cell.name} run{k}: failed{why}, once more{details}", flush=True)
            return
        done[doc["status"]] += 1
        left = n - done["ok"] - done["failed"]
        eta = (time.monotonic() - t0) / (done["ok"] + done["failed"]) * left
        print(
            f"video: {cell.name} run{k}: {doc['status']}{why} | {done['ok']} ok, "
            f"{done['failed']} failed, {left} to go, ETA {fmt_s(eta)}{details}",
            flush=True,
        )
        write_manifest(args)

    # `kill` (SIGTERM) stops like Ctrl-C: the batch's context managers quit the guest, the
    # controller and the players instead of leaving them running without their runner
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        for b, runs in plan:
            try:
                run_batch(args, b, runs, progress)
            except (ss.SessionError, OSError) as e:
                print(f"video: batch {b.name} failed: {e}", file=sys.stderr)
                # its runs not reached were attempted too: each gets its failed attempt
                version = shared.code_version()
                for cell, k in runs:
                    if (cell.name, k) not in tried:
                        why = f"batch {b.name} failed before this run: {e}"
                        doc = {"status": "failed", "error": why, "code_version": version}
                        record_attempt(args, cell, k, doc)
    except KeyboardInterrupt:
        per = write_manifest(args)
        print(
            f"video: stopped; {len(per['ok'])} runs ok, {len(per['missing'])} missing "
            "(the manifest says partial): run the same command again to finish",
            file=sys.stderr,
        )
        return 130
    per = write_manifest(args)
    if per["attempts"]:
        print(f"video: {len(per['attempts'])} failed attempts, kept under the cells' failed/")
    table = summary(args)
    if table:
        out = plot_summary(
            table, os.path.join(args.results, args.plan[0][0].experiment, "summary.png")
        )
        if out:
            print(f"video: plot {out}")
    if args.publish:
        publish(args)
    selected = {f"{c.name}/run{k}" for _b, cells in args.plan for c in cells for k in args.only}
    return 0 if not selected & set(per["failed"] + per["missing"]) else 1


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def publish(args, results=PUBLISHED):
    """The ok runs' compact table of each experiment, under docs/results/<paper>/data/; for
    QoMRA also the throughput and link utilisation series of its 6 s segment cells; and the
    table of every attempt, ok or failed (record.ATTEMPT_COLUMNS). The rows join those the
    tables have already (results.merge_runs): a run or attempt published again replaces
    itself, the others stay, so a sweep can be made in parts on several machines (each part
    from a checkout of the same commit) and published after each. Before the tables, the
    players' sample logs of the runs with the framework's numbers (sample_logs). For a design
    with link draws also the ok runs' paths and the draws' links (record.PATH_COLUMNS,
    DRAW_COLUMNS), from which the report computes capacities. Malformed samples, or a draw
    whose descriptors differ (among the runs, or from its committed links): one line, exit 1,
    nothing written."""
    by_run = (lambda r: (r["cell"], int(r["run"])), shared.run_key)
    by_attempt = (
        lambda r: (r["cell"], int(r["run"]), r["attempt"]),
        lambda r: (r["cell"], r["attempt"], r["code_version"]),
    )
    by_client = (lambda r: (r["cell"], int(r["run"]), r["client"]), shared.run_key)
    by_draw = (
        lambda r: (r["topology"], int(r["clients"]), int(r["seed"]), r["a"], r["b"]),
        _draw_key,
    )
    tables = []  # (path, rows, fields, (sort key, identity))
    logs = {}  # sample log path -> bytes
    try:
        runs = collect_runs(args, everything=True)
        by_exp = {exp: [(d, s, run_rows(d, s)) for d, s in rs] for exp, rs in runs.items()}
        for made in by_exp.values():
            logs.update(sample_logs(made, results))
        # a design with link draws: its tables are written even without an ok run (they are
        # the workflow's outputs)
        networks = {
            exp: draws(args, [d for d, _s, _r in by_exp.get(exp, [])], committed_draws(
                record.published(exp, results)[record.draws_table(exp)]))
            for exp in sorted({b.experiment for b, _c in args.plan}) if record.has_ended(exp)
        }  # fmt: skip
    except ValueError as e:  # malformed samples or draws: nothing is written
        print(f"video_run.py: cannot publish: {e}", file=sys.stderr)
        return 1
    # the sample logs first: a table never has framework numbers without their log
    for path, data in logs.items():
        files.write_atomic(path, data)
    for top in sorted({os.path.dirname(os.path.dirname(p)) for p in logs}):
        n = sum(os.path.dirname(os.path.dirname(p)) == top for p in logs)
        print(f"video: wrote {n} sample logs under {os.path.relpath(top, REPO)}/")
    for exp, made in by_exp.items():
        out = record.published(exp, results)
        rows = [r for _d, _s, rs in made for r in rs]
        tables.append((out[exp], rows, record.COLUMNS, by_run))
        if exp == "qomra":
            for name, series in zip(record.SERIES, qomra_series(args), strict=True):
                tables.append((out[name], series, record.SERIES[name], by_run))
    for exp, rows in attempts(args).items():
        out = record.published(exp, results)[record.attempts_table(exp)]
        tables.append((out, rows, record.ATTEMPT_COLUMNS, by_attempt))
    for exp, links in networks.items():
        out = record.published(exp, results)
        paths = [r for doc, _s, _r in by_exp.get(exp, []) for r in record.path_rows(doc)]
        tables.append((out[record.paths_table(exp)], paths, record.PATH_COLUMNS, by_client))
        tables.append((out[record.draws_table(exp)], links, record.DRAW_COLUMNS, by_draw))
    for exp in sorted({b.experiment for b, _c in args.plan}):
        name = record.ended_table(exp)
        out = record.published(exp, results).get(name)
        if out is not None:
            tables.append((out, ended(args, exp), [*record.COLUMNS, *record.ENDED_COLUMNS],
                           by_attempt))  # fmt: skip
    for out, rows, fields, (order, identity) in tables:

        def read(path, fields=fields):
            try:
                return [r for _line, r in shared.read_csv(path, fields, grown=True) or []]
            except shared.ReportError as e:  # another layout: the table is made anew
                print(f"video: {os.path.relpath(path, REPO)}: {e}; its rows are replaced")
                return []

        n, kept = campaign.publish_table(out, rows, fields, order, identity, read)
        print(f"video: wrote {os.path.relpath(out, REPO)} ({n} rows published, "
              f"{kept} kept)")  # fmt: skip
    return 0


def _draw_key(r):
    """A draws-table row's draw, as text (built and read-back rows alike)."""
    return (r["topology"], str(r["clients"]), str(r["seed"]))


def _draw_set(rows):
    """A draw's rows compared as a network: each link's capacity and delay, the attachment."""

    def num(v):
        return None if v in ("", None) else float(v)

    return sorted((r["a"], r["b"], num(r["capacity_mbps"]), num(r["delay_ms"]),
                   r["server_switch"], r["client_switches"]) for r in rows)  # fmt: skip


def draws(args, docs, committed=()):
    """The draws table's rows (record.draw_rows) of the networks the runs were made on, one
    set per draw (topology, clients, seed); ValueError when two descriptors of one draw differ,
    or one differs from the committed rows of its draw (the draw would not name one network:
    the committed paths would be measured against other links)."""
    by_draw, descs = {}, {}
    for doc in docs:
        where = f"{doc['cell']} run{doc['run']}"
        if not doc.get("descriptor"):
            raise ValueError(f"{where}: its run document names no descriptor")
        rel = doc["descriptor"]
        if rel not in descs:  # a batch's runs share theirs: read it once
            descs[rel] = files.read_json(os.path.join(args.results, rel))
        desc = descs[rel]
        if not desc:
            raise ValueError(f"{where}: no descriptor {doc['descriptor']}")
        rows = record.draw_rows(doc, desc)
        key = _draw_key(rows[0]) if rows else None
        if _draw_set(by_draw.setdefault(key, rows)) != _draw_set(rows):
            raise ValueError(f"draw {key}: the descriptors of its runs differ "
                             f"({doc['descriptor']})")  # fmt: skip
    old = {}
    for r in committed:
        old.setdefault(_draw_key(r), []).append(r)
    for key, rows in by_draw.items():
        if key in old and _draw_set(old[key]) != _draw_set(rows):
            raise ValueError(f"draw {key}: its runs' descriptor differs from the committed "
                             "links of that draw")  # fmt: skip
    return [r for rows in by_draw.values() for r in rows]


def committed_draws(path):
    """The committed draws table's rows ([] when absent or of another layout, which the
    publish replaces)."""
    try:
        return [r for _line, r in shared.read_csv(path, record.DRAW_COLUMNS) or []]
    except shared.ReportError:
        return []


def sample_logs(made, results):
    """{path: gzip CSV} of the sample logs (record.samples_path) of the runs in made,
    [(doc, samples, rows)]: those with the framework's numbers for a client, which the report
    recomputes from them."""
    out = {}
    for doc, samples, rows in made:
        if any(r["fw_switches"] != "" for r in rows):
            path = record.samples_path(
                results, doc["experiment"], doc["cell"], doc["run"], doc["code_version"]
            )
            out[path] = record.samples_bytes(samples)
    return out


def stored_runs(results, exp, failed=False):
    """The run directories under RESULTS/<experiment>/, sorted: each cell's run<k>/, and with
    failed also its failed/run<k>-<time>/ (the attempts that failed their checks)."""
    top = os.path.join(results, exp)
    dirs = []
    for cell in os.listdir(top) if os.path.isdir(top) else []:
        base = os.path.join(top, cell)
        if cell in ("batches", "attempts") or not os.path.isdir(base):
            continue
        dirs += [os.path.join(base, x) for x in os.listdir(base) if re.fullmatch(r"run\d+", x)]
        gone = os.path.join(base, "failed")
        if failed and os.path.isdir(gone):
            dirs += [
                os.path.join(gone, x) for x in os.listdir(gone) if re.fullmatch(r"run\d+-\d+", x)
            ]
    return sorted(dirs)


def attempts(args):
    """{experiment: [record.attempt_row]} of every attempt under RESULTS/<experiment>/ of the
    plan's experiments (stored_runs with the failed ones) that has a run.json."""
    out = {}
    for exp in sorted({b.experiment for b, _c in args.plan}):
        for d in stored_runs(args.results, exp, failed=True):
            doc = files.read_json(os.path.join(d, "run.json"))
            if not doc:
                continue
            try:
                with open(os.path.join(d, "controller.log"), encoding="utf-8") as f:
                    log = f.read()
            except OSError:
                log = ""
            out.setdefault(exp, []).append(record.attempt_row(doc, os.path.basename(d), log))
    return out


def ended(args, exp):
    """The ended table's rows (record.ended_rows) of the experiment's failed attempts kept
    under its cells' failed/, each named as in the attempts table."""
    out = []
    for d in stored_runs(args.results, exp, failed=True):
        doc = files.read_json(os.path.join(d, "run.json"))
        if doc and doc.get("status") != "ok":
            out += record.ended_rows(doc, run_samples(d, doc), os.path.basename(d))
    return out


def qomra_series(args):
    tput, links = [], []
    for b, cells in args.plan:
        if b.experiment != "qomra" or b.segment_s != 6:
            continue
        for c in cells:
            for k in range(1, args.runs + 1):
                d = run_dir(args.results, c, k)
                if not run_ok(d):
                    continue
                doc = files.read_json(os.path.join(d, "run.json"))
                series = {}
                for i, cl in enumerate(doc["clients"]):
                    cj = files.read_json(os.path.join(d, "players", f"client-{i}.json")) or {}
                    series[cl["name"]] = cj.get("throughput") or []
                tput += record.throughput_rows(doc, series)
                desc = files.read_json(os.path.join(args.results, doc["descriptor"]))
                links += record.link_rows(doc, desc)
    return tput, links


# The printed summary, two families side by side (docs/video-experiments.md, "Two QoE
# metrics"): the project's, from the players' events, and the GA paper's authors'
# (mpqoe.framework_qoe), from their 1 s samples. (heading, ((column, label), ...))
SUMMARY = (
    (
        "project (player events)",
        (
            ("avg_bitrate_kbps", "bitrate"),
            ("switches_ga", "switches"),
            ("outage_s", "outage s"),
            ("startup_s", "startup s"),
        ),
    ),
    (
        "framework (1 s samples)",
        (
            ("fw_bitrate_kbps", "bitrate"),
            ("fw_switches", "switches"),
            ("fw_underruns", "underruns"),
            ("fw_underrun_s", "underrun s"),
        ),
    ),
)
SUMMARY_NOTE = (
    "bitrate: kbit/s; switches: sum of quality level steps; outage: time stalled after the start",
    "underruns: episodes of 0 < buffer < 1 s, and their 1 s samples (the framework's main.java)",
)


def summary(args):
    """Per cell: the mean over its ok runs' clients of each SUMMARY metric, and how many
    clients finished; printed as a table, drawn as bars when matplotlib is there."""
    try:
        rows = [r for exp_rows in collect(args).values() for r in exp_rows]
    except ValueError as e:
        print(f"video: no summary: {e}", file=sys.stderr)
        return []
    cells = {}
    for r in rows:
        cells.setdefault(r["cell"], []).append(r)
    columns = [c for _h, cols in SUMMARY for c in cols]
    table = []
    for cell, rs in cells.items():
        ok = [r for r in rs if r["status"] == "ok"]
        means = {}
        for key, _label in columns:
            vals = [float(r[key]) for r in ok if r[key] not in ("", None)]
            means[key] = sum(vals) / len(vals) if vals else None
        table.append((cell, len(ok), len(rs), means))
    for line in summary_lines(table):
        print(line)
    return table


def summary_lines(table):
    """The summary's text: a heading per family over its columns, each column as wide as its
    label plus two spaces, so that labels never run together, then a line of definitions."""
    lead = 34 + 12
    widths = [[len(lab) + 2 for _k, lab in cols] for _h, cols in SUMMARY]
    heads = "".join(f"{h:>{sum(w)}}" for (h, _c), w in zip(SUMMARY, widths, strict=True))
    labels = "".join(
        f"{lab:>{w}}"
        for (_h, cols), ws in zip(SUMMARY, widths, strict=True)
        for (_k, lab), w in zip(cols, ws, strict=True)
    )
    out = [" " * lead + heads, f"{'cell':<34}{'clients ok':>12}" + labels]
    for cell, n_ok, n, means in table:
        vals = "".join(
            f"{'-' if means[k] is None else f'{means[k]:.1f}':>{w}}"
            for (_h, cols), ws in zip(SUMMARY, widths, strict=True)
            for (k, _l), w in zip(cols, ws, strict=True)
        )
        out.append(f"{cell:<34}{f'{n_ok}/{n}':>12}{vals}")
    return out + list(SUMMARY_NOTE)


def run_timelines(exp_dir, cells):
    """{cell: {client: [(t, buffer_s, quality)]}} of the first ok run of each cell (its lowest
    run<k>/ under exp_dir, RESULTS/<experiment>/), from its players' 1 s samples (run_samples);
    cells without an ok run are left out."""
    out = {}
    for cell in cells:
        d = os.path.join(exp_dir, cell)
        names = os.listdir(d) if os.path.isdir(d) else []
        runs = sorted((int(n[3:]), n) for n in names if re.fullmatch(r"run\d+", n))
        for _k, n in runs:
            run = os.path.join(d, n)
            if run_ok(run):
                samples = run_samples(run, files.read_json(os.path.join(run, "run.json")))
                out[cell] = {c: [(t, b, q) for t, b, q, _kbps in ss] for c, ss in samples.items()}
                break
    return out


def plot_summary(table, path):
    """Bars per cell for each of the project's SUMMARY metrics and, below, per cell the buffer
    (s) and the quality (level) of each client over time in its first ok run, where the stalls
    show as the buffer at 0 (skipped, with a note, without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("video: no plot: matplotlib missing (apt-get install python3-matplotlib)")
        return None
    _head, cols = SUMMARY[0]  # the project's metrics
    keys, labels = [k for k, _l in cols], dict(cols)
    cells = [c for c, *_ in table]
    lines = run_timelines(os.path.dirname(path), cells)
    width = max(len(keys), len(lines))
    fig = plt.figure(figsize=(4 * width, 7.4 if lines else 3.6))
    rows = 2 if lines else 1
    names = [c.rsplit(".", 1)[-1] for c in cells]
    for i, key in enumerate(keys):
        ax = fig.add_subplot(rows, len(keys), i + 1)
        vals = [m[key] if m[key] is not None else 0 for *_x, m in table]
        ax.bar(names, vals, color="0.45")
        ax.set_title(labels[key], fontsize=10)
        ax.tick_params(axis="x", rotation=45)
    for j, (cell, clients) in enumerate(lines.items()):
        ax = fig.add_subplot(rows, len(lines), len(lines) + j + 1)
        q = ax.twinx()
        for client, samples in clients.items():
            t = [x[0] for x in samples]
            (line,) = ax.plot(t, [x[1] if x[1] is not None else 0 for x in samples], lw=1,
                              label=client)  # fmt: skip
            levels = [float("nan") if x[2] is None else x[2] for x in samples]
            q.step(t, levels, where="post", lw=0.8, ls=":", color=line.get_color())
        ax.set_title(f"{cell.rsplit('.', 1)[-1]}: buffer (solid), quality (dotted)", fontsize=9)
        ax.set_xlabel("s", fontsize=8)
        ax.set_ylabel("buffer (s)", fontsize=8)
        q.set_ylabel("quality level", fontsize=8)
        if j == 0:
            ax.legend(fontsize=7, loc="upper left")
    fig.suptitle(table[0][0].rsplit(".", 1)[0] + ": the project's metrics, mean over clients "
                 "(bitrate in kbit/s, outage and startup in s); below, each client in the "
                 "cell's first ok run")  # fmt: skip
    fig.tight_layout()
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    os.replace(tmp, path)
    return path


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

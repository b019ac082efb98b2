#!/usr/bin/env python3
"""Integration test: one dash.js client, one MPTCP server, two rate-limited paths, kernel MPTCP.

    test/integration_test.py [--timeout 480] [--player NAME[,NAME...]] [--keep DIR]

Builds mpqoe.twopath's testbed (two namespaces, two veth paths of 2 Mbit/s each way by tbf),
runs `./run --clients 1` with the server in one namespace and Chromium (under mptcpize) in the
other, on 20 s of GA-set content in 2 s segments (top representation 2.6 Mbit/s: more than one
path carries), once per player profile (default: every profile in player/players.json), and
checks:
  1. the run: exit 0, run.json complete and not partial, the client's status ok, playback ended;
     the results name the profile and its dash.js version; the samples carry buffer, quality and
     bitrateKbps while playing (the paper profile's from STREAM_INITIALIZED on);
  2. kernel counters: the server's MPTcpExt counted an MP_CAPABLE and an MP_JOIN, both client
     interfaces received a real share of the video bytes, and `ss` saw MPTCP subflows from both
     client addresses each receive data;
  3. the QoE JSON is complete (manifest, playing, end, every segment index played, times ordered,
     every summary metric present, a throughput series) and agrees with the server's log: each
     completed segment request matches one logged request of the same path and byte count whose
     server-side times lie within the browser's [start, end] of it, the leftovers are exactly
     the requests the player abandoned or saw fail, and every logged connection ran MPTCP;
  4. a failing client is reported, not dropped: two clients with a 6 s limit on the same content
     over loopback both end as `timeout` rows, run exits 1, run.json is complete; two clients
     whose browser dies at launch (--chromium /bin/false) both end as `failed` rows with the
     error, run exits 1.
The namespaces are always deleted; the whole test stops itself after --timeout seconds.
Prints `N passed, N failed` at the end; exit code 0 when everything passed.
"""

import collections
import json
import os
import posixpath
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

from mpqoe import twopath
from mpqoe.dash_harness import RUN, Failure, Parser, UsageError, players, run_main

CONTENT = ["--set", "ga", "--duration", "20", "--segment", "2"]
SEGMENTS = 10


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(
            f"  [{'PASS' if ok else 'FAIL'}] {name}" + (f": {detail}" if detail else ""), flush=True
        )
        return ok


def load_json(path):
    with open(path) as f:
        return json.load(f)


def read_log(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def seg_key(url_or_path):
    return posixpath.basename(urllib.parse.urlsplit(url_or_path).path)


def run_harness(args, timeout):
    print("  $ run " + " ".join(args), flush=True)
    t = time.monotonic()
    r = subprocess.run([RUN, *args], capture_output=True, text=True, timeout=timeout)
    sys.stderr.write("".join(f"    | {line}\n" for line in r.stderr.splitlines()[-30:]))
    return r, time.monotonic() - t


def mistimed(events, t0, seg_log, slack=0.05):
    """The completed requests that no logged request explains in time: the server must have read
    the request after the browser sent it and written the last byte before the browser had it
    (same clock: the namespaces share the host's). Each logged request explains one at most."""
    free = collections.defaultdict(list)
    for x in seg_log:
        free[(seg_key(x["path"]), x["bytes"])].append(x)
    bad = []
    for e in sorted((e for e in events if e["type"] == "request"), key=lambda e: e["start"]):
        start, end = t0 + e["start"], t0 + e["end"]
        cands = free[(seg_key(e["url"]), e["bytes"])]
        ok = [x for x in cands if start - slack <= x["start"] <= x["end"] <= end + slack]
        if ok:
            cands.remove(min(ok, key=lambda x: abs(x["start"] - start)))
        else:
            bad.append(f"{seg_key(e['url'])} {start:.3f}-{end:.3f}")
    return bad


def check_samples(c, qoe, profile):
    """The reference player's three values in every sample taken while playing: buffer (s),
    quality (a level of the ladder) and bitrateKbps (a representation's bandwidth in kbit/s)."""
    events = qoe.get("events", [])
    ladder = next((e["representations"] for e in events if e["type"] == "manifest"), [])
    kbps = {round(r["bandwidth"] / 1000) for r in ladder}
    start = next((e["t"] for e in events if e["type"] == "playing"), None)
    end = next((e["t"] for e in events if e["type"] in ("ended", "end")), None)
    samples = [e for e in events if e["type"] == "sample"]
    playing = [e for e in samples if start is not None and start <= e["t"] <= (end or e["t"])]
    good = [
        e
        for e in playing
        if isinstance(e.get("buffer"), (int, float))
        and e["buffer"] > 0
        and e.get("quality") in range(len(ladder))
        and e.get("bitrateKbps") in kbps
    ]
    c.check(
        "samples while playing carry buffer, quality and bitrateKbps",
        len(playing) >= 10 and len(good) >= 0.9 * len(playing),
        f"{len(good)} of {len(playing)} good, ladder {sorted(kbps)} kbit/s"
        + (f", e.g. {playing[-1]}" if playing else ""),
    )
    if profile["samplesFrom"] == "streamInitialized":
        first = samples[0]["t"] if samples else None
        manifest = next((e["t"] for e in events if e["type"] == "manifest"), None)
        c.check(
            "samples start at STREAM_INITIALIZED (the manifest event)",
            first is not None and manifest is not None and manifest < first <= manifest + 1.5,
            f"manifest at {manifest}, first sample at {first}",
        )


def check_qoe(c, rec, log, profile):
    qoe = rec.get("qoe") or {}
    events = qoe.get("events", [])
    types = collections.Counter(e["type"] for e in events)
    c.check(
        "QoE JSON has manifest, playing and end",
        all(types[t] for t in ("manifest", "playing", "end")),
        str(dict(types)),
    )
    c.check("playback ended normally", rec.get("end_reason") == "ended", rec.get("end_reason"))
    media = [e for e in events if e["type"] == "request" and e["kind"] == "media"]
    indices = {e["index"] for e in media}
    c.check(
        f"every segment index 0..{SEGMENTS - 1} downloaded",
        indices == set(range(SEGMENTS)),
        str(sorted(indices)),
    )
    c.check("segments_played == content segments", rec.get("segments_played") == SEGMENTS)
    ordered = all(
        e["start"] is not None
        and e["end"] is not None
        and e["start"] <= e["end"]
        and e["bytes"] > 0
        for e in events
        if e["type"] == "request"
    )
    c.check("every request has bytes and start <= end", ordered)
    c.check(
        "every media request names its level and bitrate",
        media and all(isinstance(e["level"], int) and e["bitrate"] for e in media),
    )
    check_samples(c, qoe, profile)
    fields = [
        "startup_delay_s",
        "avg_bitrate_kbps",
        "switches_ga",
        "switches_count",
        "outage_s",
        "success_rate",
        "dropped_frames",
        "mean_throughput_kbps",
        "redownload_share",
    ]
    if profile["api"] >= 5:
        fields.append("estimate_error")  # 2.5.0 gives the page no throughput estimate
    missing = [f for f in fields if rec.get(f) is None]
    c.check("every summary metric present", not missing, f"missing {missing}" if missing else "")
    c.check("throughput series present", len(rec.get("throughput") or []) >= 5)
    c.check(
        "avg bitrate within the ladder",
        rec.get("avg_bitrate_kbps") is not None and 1500 <= rec["avg_bitrate_kbps"] <= 2600,
        str(rec.get("avg_bitrate_kbps")),
    )

    # consistency with the server's log
    seg_log = [x for x in log if x["method"] == "GET" and seg_key(x["path"]).endswith(".m4s")]
    logged = collections.Counter((seg_key(x["path"]), x["bytes"]) for x in seg_log)
    client = collections.Counter(
        (seg_key(e["url"]), e["bytes"]) for e in events if e["type"] == "request"
    )
    unmatched_client = client - logged
    leftover = logged - client
    c.check(
        "each completed request matches a logged request (path, bytes)",
        not unmatched_client,
        f"{sum(client.values())} requests"
        + (f", unmatched {dict(unmatched_client)}" if unmatched_client else ""),
    )
    gave_up = sum(1 for e in events if e["type"] in ("abandoned", "request_failed"))
    c.check(
        "logged segment requests = completed + abandoned/failed",
        sum(leftover.values()) == gave_up,
        f"{len(seg_log)} logged, {sum(client.values())} completed, {gave_up} abandoned/failed",
    )
    c.check(
        "each completed request lies within the server's timing of it",
        not (bad := mistimed(events, qoe["meta"]["t0"] / 1000, seg_log)),
        "; ".join(bad[:3]),
    )
    media_bytes = sum(e["bytes"] for e in media)
    c.check("server saw every connection as MPTCP", all(x.get("mptcp") is True for x in log))
    return media_bytes


def integration(c, out, timeout, name):
    with twopath.TwoPath(rates_mbit=(2.0, 2.0)) as lab:
        srv0 = lab.mptcp_counters(lab.srv)
        links0 = lab.link_bytes(lab.cli)
        sampler = twopath.SubflowSampler(lab, lab.cli)
        sampler.start()
        try:
            r, secs = run_harness(
                [
                    *["--clients", "1", *CONTENT, "--server-netns", lab.srv, "--netns", lab.cli],
                    *["--server-addr", twopath.SERVER_ADDR, "--out", out, "--timeout", "90"],
                    *["--progress", "5", "--player", name],
                ],
                timeout=timeout,
            )
        finally:
            sampler.stop()
        srv1 = lab.mptcp_counters(lab.srv)
        links1 = lab.link_bytes(lab.cli)
    print(f"  (two-path run took {secs:.1f} s)")
    c.check("run exits 0", r.returncode == 0, f"exit {r.returncode}")
    if not os.path.exists(os.path.join(out, "run.json")):
        c.check("run.json written", False)
        return
    run = load_json(os.path.join(out, "run.json"))
    c.check("run.json complete, not partial", run["complete"] and not run["partial"])
    rec = load_json(os.path.join(out, "client-0.json"))
    c.check("client status ok", rec["status"] == "ok", rec.get("error") or "")
    with open(os.path.join(out, "clients.csv")) as f:
        rows = f.read().splitlines()
    c.check("clients.csv: header + 1 row", len(rows) == 2 and rows[1].startswith("0,ok,"))
    profile = players()["players"][name]
    meta = (rec.get("qoe") or {}).get("meta", {})
    c.check(
        f"results name the profile {name} and dash.js {profile['version']}",
        run["meta"].get("player") == name
        and run["meta"].get("dashjs") == profile["version"]
        and meta.get("player") == name
        and meta.get("dashjs") == profile["version"],
        f"run.json {run['meta'].get('player')}/{run['meta'].get('dashjs')},"
        f" page {meta.get('player')}/{meta.get('dashjs')}",
    )
    media_bytes = check_qoe(c, rec, read_log(os.path.join(out, "server.log")), profile)

    d = {k: srv1.get(k, 0) - srv0.get(k, 0) for k in srv1}
    c.check(
        "server MPTcpExt MPCapableSYNRX >= 1",
        d.get("MPCapableSYNRX", 0) >= 1,
        str(d.get("MPCapableSYNRX")),
    )
    c.check(
        "server MPTcpExt MPJoinSynRx >= 1", d.get("MPJoinSynRx", 0) >= 1, str(d.get("MPJoinSynRx"))
    )
    rx = {dev: links1[dev][0] - links0[dev][0] for dev in ("v1c", "v2c")}
    share = min(rx.values()) / max(1, media_bytes)
    c.check(
        "both paths carried >= 15 % of the video bytes (interface counters)",
        share >= 0.15,
        f"v1c {rx['v1c']} B, v2c {rx['v2c']} B, video {media_bytes} B",
    )
    by_addr = sampler.received_by_local_addr()
    c.check(
        "ss: MPTCP subflows from both client addresses received data",
        all(by_addr.get(a, 0) > 100_000 for a in twopath.CLIENT_ADDRS),
        str(by_addr),
    )
    print(
        f"  (avg bitrate {rec['avg_bitrate_kbps']} kbit/s, switches {rec['switches_count']}"
        f" (GA {rec['switches_ga']}), outage {rec['outage_s']} s,"
        f" startup {rec['startup_delay_s']} s, success rate {rec['success_rate']})"
    )


def timeouts(c, out, timeout):
    r, secs = run_harness(
        [*["--clients", "2", *CONTENT, "--stagger", "1", "--timeout", "6", "--out", out]],
        timeout=timeout,
    )
    c.check("run with timed-out clients exits 1", r.returncode == 1, f"exit {r.returncode}")
    run = load_json(os.path.join(out, "run.json"))
    c.check("run.json complete with both clients", run["complete"] and len(run["clients"]) == 2)
    with open(os.path.join(out, "clients.csv")) as f:
        rows = f.read().splitlines()[1:]
    c.check(
        "both clients reported as timeout rows",
        len(rows) == 2 and all(row.split(",")[1] == "timeout" for row in rows),
        "; ".join(row[:40] for row in rows),
    )


def crashes(c, out, timeout):
    r, _ = run_harness(
        [*["--clients", "2", *CONTENT, "--stagger", "0", "--timeout", "30", "--out", out]]
        + ["--chromium", "/bin/false"],
        timeout=timeout,
    )
    c.check("run whose browsers die at launch exits 1", r.returncode == 1, f"exit {r.returncode}")
    run = load_json(os.path.join(out, "run.json"))
    recs = [load_json(os.path.join(out, f"client-{i}.json")) for i in range(2)]
    c.check(
        "both clients reported as failed with the launch error",
        run["complete"]
        and [x["status"] for x in run["clients"]] == ["failed", "failed"]
        and all(x["status"] == "failed" and x["error"] for x in recs),
        "; ".join(str(x.get("error"))[:60] for x in recs),
    )


def body(argv):
    ap = Parser(prog="integration_test", description=__doc__.split("\n\n")[0])
    known = players()["players"]
    ap.add_argument("--timeout", type=int, default=480, help="whole-test limit in seconds")
    ap.add_argument(
        "--player", default=",".join(known), help="player profiles to play (default: every one)"
    )
    ap.add_argument("--keep", help="copy the results here")
    args = ap.parse_args(argv)
    names = args.player.split(",")
    if not names or not set(names) <= set(known):
        raise UsageError(f"--player wants names from {', '.join(known)}, got {args.player!r}")
    twopath.preflight()

    def on_alarm(*_):
        raise TimeoutError(f"integration test exceeded {args.timeout} s")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(args.timeout)
    c = Checks()
    tmp = tempfile.mkdtemp(prefix="mqdash-it-")
    t0 = time.monotonic()
    try:
        for name in names:
            print(f"two paths, one MPTCP client, player {name}:", flush=True)
            integration(c, os.path.join(tmp, f"twopath-{name}"), args.timeout, name)
        print("failing clients are reported:", flush=True)
        timeouts(c, os.path.join(tmp, "timeouts"), timeout=args.timeout)
        crashes(c, os.path.join(tmp, "crashes"), timeout=args.timeout)
    except (TimeoutError, subprocess.TimeoutExpired, Failure, OSError, ValueError) as e:
        c.check("test finished", False, str(e))
    finally:
        signal.alarm(0)
        if args.keep:
            shutil.copytree(tmp, args.keep, dirs_exist_ok=True)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"integration: {time.monotonic() - t0:.0f} s")
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


def main(argv=None):
    return run_main("integration_test", body, argv)


if __name__ == "__main__":
    sys.exit(main())

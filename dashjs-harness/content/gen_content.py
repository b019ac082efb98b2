#!/usr/bin/env python3
"""Generate DASH content for the harness with Debian's ffmpeg (libx264), cached by its parameters.

    content/gen_content.py --set ga|qomra [--duration S] [--segment S] [--resolution small|nominal]
                           [--fps N] [--cache DIR] [--force]

Prints the content directory (which holds manifest.mpd and content.json) on stdout.

Sets (the papers' bitrate ladders):
  ga     1500, 2000, 2500, 2600 kbit/s; 9 min (540 s) and 4 s segments by default
  qomra  240p 325, 360p 725, 480p 1000, 720p 2500, 1080p 5000 kbit/s; 6 s segments by default,
         the paper used 2, 4, 6, 8 and 10 s

The source is synthetic (lavfi testsrc2). Every representation is constant bitrate: x264's
`nal-hrd=cbr` with minrate = maxrate = bufsize = the nominal rate pads each segment to exactly the
nominal bitrate, which the generator checks (each representation's mean media-segment bitrate must
be within 2 % of nominal). Keyframes fall on segment boundaries (fixed GOP, no scene cuts), so the
segments of all representations align and any switch is possible at any boundary.

--resolution small (default) encodes every representation at 320x180: the network sees the
nominal bitrates while a browser decodes little, so many players fit on 2 cores. nominal encodes
at the ladder's own sizes (GA set: 1280x720 for all four, which the paper does not give; QoMRA:
426x240 ... 1920x1080): much slower to encode and to decode.

The cache key is every parameter plus the ffmpeg version; an entry is built in a temporary
directory and renamed into place, so a half-written entry is never used.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

from mpqoe.dash_harness import (
    HOME,
    Failure,
    Parser,
    Unavailable,
    UsageError,
    run_main,
    write_json_atomic,
)

DEFAULT_CACHE = os.path.join(HOME, "build", "content")
GENERATOR_VERSION = 2

# Each set: default duration and segment (s), and its ladder of (kbit/s, nominal width, height)
SETS = {
    "ga": (540, 4, [(1500, 1280, 720), (2000, 1280, 720), (2500, 1280, 720), (2600, 1280, 720)]),
    "qomra": (
        540,
        6,
        [(325, 426, 240), (725, 640, 360), (1000, 854, 480), (2500, 1280, 720), (5000, 1920, 1080)],
    ),
}
SMALL = (320, 180)
BITRATE_TOLERANCE = 0.02


def ffmpeg_version():
    try:
        out = subprocess.run(["ffmpeg", "-version"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise Unavailable(f"ffmpeg is not available ({e}); apt-get install ffmpeg") from e
    return out.stdout.splitlines()[0]


def params_of(args):
    default_duration, default_segment, ladder = SETS[args.set]
    duration = args.duration if args.duration is not None else default_duration
    segment = args.segment if args.segment is not None else default_segment
    if duration <= 0 or segment <= 0:
        raise UsageError("--duration and --segment must be positive")
    if segment > duration:
        raise UsageError(f"--segment {segment} is longer than --duration {duration}")
    if args.fps <= 0 or args.fps > 60:
        raise UsageError("--fps must be in 1..60")
    if abs(segment * args.fps - round(segment * args.fps)) > 1e-9:
        raise UsageError("--segment times --fps must be a whole number of frames")
    reps = []
    for kbps, *size in ladder:
        w, h = size if args.resolution == "nominal" else SMALL
        reps.append({"kbps": kbps, "width": w, "height": h})
    return {
        "set": args.set,
        "duration": duration,
        "segment": segment,
        "fps": args.fps,
        "resolution": args.resolution,
        "representations": reps,
        "generator": GENERATOR_VERSION,
    }


def key_of(params, ffver):
    blob = json.dumps({"p": params, "ffmpeg": ffver}, sort_keys=True).encode()
    h = hashlib.sha256(blob).hexdigest()[:10]
    p = params
    return f"{p['set']}-{p['duration']:g}s-seg{p['segment']:g}-{p['resolution']}-{h}"


def ffmpeg_command(params, outdir):
    reps = params["representations"]
    n = len(reps)
    fps = params["fps"]
    gop = round(params["segment"] * fps)
    big = max((r["width"], r["height"]) for r in reps)
    graph = [f"[0:v]split={n}" + "".join(f"[s{i}]" for i in range(n))]
    for i, r in enumerate(reps):
        # one display aspect ratio (16:9) for the whole adaptation set, as the dash muxer
        # demands: 426x240 gets a sample aspect ratio of 640:639
        sar = f"{16 * r['height']}/{9 * r['width']}"
        graph.append(f"[s{i}]scale={r['width']}:{r['height']},setsar=sar={sar}:max=100000[v{i}]")
    cmd = [
        "ffmpeg",
        "-hide_banner",
        "-loglevel",
        "error",
        "-y",
        "-f",
        "lavfi",
        "-i",
        f"testsrc2=s={big[0]}x{big[1]}:r={fps}:d={params['duration']}",
        "-filter_complex",
        ";".join(graph),
    ]
    for i in range(n):
        cmd += ["-map", f"[v{i}]"]
    cmd += [
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        "-profile:v",
        "main",
        "-pix_fmt",
        "yuv420p",
        "-g",
        str(gop),
        "-keyint_min",
        str(gop),
        "-sc_threshold",
        "0",
        "-x264-params",
        "nal-hrd=cbr:force-cfr=1",
    ]
    for i, r in enumerate(reps):
        rate = f"{r['kbps']}k"
        cmd += [f"-b:v:{i}", rate, f"-minrate:v:{i}", rate, f"-maxrate:v:{i}", rate]
        cmd += [f"-bufsize:v:{i}", rate]
    cmd += [
        "-f",
        "dash",
        "-seg_duration",
        f"{params['segment']:g}",
        "-use_template",
        "1",
        "-use_timeline",
        "0",
        "-init_seg_name",
        "init-$RepresentationID$.m4s",
        "-media_seg_name",
        "seg-$RepresentationID$-$Number%05d$.m4s",
        "-adaptation_sets",
        "id=0,streams=v",
        os.path.join(outdir, "manifest.mpd"),
    ]
    return cmd


def measure(params, outdir):
    """Per representation: segment count, bytes, and mean bitrate of the full media segments."""
    ns = {"d": "urn:mpeg:dash:schema:mpd:2011"}
    root = ET.parse(os.path.join(outdir, "manifest.mpd")).getroot()
    ids = [r.get("id") for r in root.iterfind(".//d:Representation", ns)]
    files = os.listdir(outdir)
    out = []
    seg = params["segment"]
    for rid, rep in zip(ids, params["representations"], strict=True):
        pat = re.compile(rf"^seg-{re.escape(rid)}-(\d+)\.m4s$")
        segs = sorted((int(m.group(1)), f) for f in files if (m := pat.match(f)))
        sizes = [os.path.getsize(os.path.join(outdir, f)) for _, f in segs]
        # the first segment lacks part of the HRD buffer fill, the last may be short: use the rest
        # when there are any
        core = sizes[1:-1] if len(sizes) > 2 else sizes
        kbps = sum(core) * 8 / (len(core) * seg) / 1000 if core else 0.0
        out.append(
            {
                "id": rid,
                "nominal_kbps": rep["kbps"],
                "measured_kbps": round(kbps, 1),
                "width": rep["width"],
                "height": rep["height"],
                "segments": len(sizes),
                "bytes": sum(sizes) + os.path.getsize(os.path.join(outdir, f"init-{rid}.m4s")),
            }
        )
    return out


def generate(params, cache, force=False, log=sys.stderr):
    ffver = ffmpeg_version()
    key = key_of(params, ffver)
    final = os.path.join(cache, key)
    if os.path.isfile(os.path.join(final, "content.json")) and not force:
        return final, False
    os.makedirs(cache, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=f".{key}.", dir=cache)
    try:
        t0 = time.monotonic()
        print(f"gen_content: encoding {key} ...", file=log, flush=True)
        r = subprocess.run(ffmpeg_command(params, tmp), capture_output=True, text=True)
        if r.returncode != 0:
            raise Failure(f"ffmpeg failed ({r.returncode}): {r.stderr.strip()[-2000:]}")
        secs = time.monotonic() - t0
        reps = measure(params, tmp)
        bad = [
            r
            for r in reps
            if abs(r["measured_kbps"] - r["nominal_kbps"]) > BITRATE_TOLERANCE * r["nominal_kbps"]
        ]
        if bad:
            raise Failure(f"representations miss their nominal bitrate: {bad}")
        meta = {
            "key": key,
            "params": params,
            "ffmpeg": ffver,
            "encode_seconds": round(secs, 2),
            "representations": reps,
        }
        write_json_atomic(os.path.join(tmp, "content.json"), meta)
        os.chmod(tmp, 0o755)
        if force and os.path.exists(final):
            shutil.rmtree(final)
        try:
            os.rename(tmp, final)
        except OSError:
            # another generator finished the same entry meanwhile: it is identical, keep it
            if not os.path.isfile(os.path.join(final, "content.json")):
                raise
        print(f"gen_content: {key} encoded in {secs:.1f} s", file=log, flush=True)
        return final, True
    finally:
        if os.path.exists(tmp):
            shutil.rmtree(tmp, ignore_errors=True)


def build_parser():
    ap = Parser(
        prog="gen_content",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawTextHelpFormatter,
    )
    ap.add_argument("--set", choices=sorted(SETS), default="ga")
    ap.add_argument("--duration", type=float, help="seconds (default: the set's, 540)")
    ap.add_argument("--segment", type=float, help="segment seconds (default: ga 4, qomra 6)")
    ap.add_argument("--resolution", choices=["small", "nominal"], default="small")
    ap.add_argument("--fps", type=int, default=25)
    ap.add_argument("--cache", default=DEFAULT_CACHE)
    ap.add_argument("--force", action="store_true", help="re-encode even if cached")
    return ap


def body(argv):
    args = build_parser().parse_args(argv)
    path, _ = generate(params_of(args), args.cache, args.force)
    print(path)
    return 0


def main(argv=None):
    return run_main("gen_content", body, argv)


if __name__ == "__main__":
    sys.exit(main())

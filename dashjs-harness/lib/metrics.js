'use strict';
// The papers' QoE metrics as pure functions over one player's event list (player/player.js
// documents the events). Times are seconds since the player was created; bitrates are in kbit/s.
//
// Definitions (docs/dashjs-harness.md has the reasoning):
//  - requests: completed video media-segment requests, in the order they were issued (start).
//  - played segments: one version per segment index that playback reached: the last download
//    completed when playback reached the segment's start (else the first to complete).
//  - average received bitrate: mean of the played segments' nominal bitrates weighted by the
//    media seconds each holds (the last one can be shorter than the others);
//    and, as a cross-check, the mean over played media time of the rendered representation.
//  - quality switches: GA paper, sum of |level_i - level_{i-1}| over consecutive requests; and the
//    plain count of changes.
//  - stalls: from a `waiting` after playback first started to the next `playing` (or the end of the
//    session: such a stall is "open"); outage duration is their total.
//  - startup delay: time of the first `playing`.
//  - success rate (QoMRA): share of played segments at the top level of the ladder.
//  - re-downloads: requests for a segment index an earlier request already fetched (dash.js's
//    fast switching replaces buffered segments after an up-switch), their count and byte share.
//  - estimate error: how far dash.js's throughput estimate, as last sampled before a segment
//    request, was from that download's own throughput (median of |estimate / realized - 1|).
//  - throughput over time: every request's bytes (all segment kinds and media types) spread
//    evenly over [firstByte or start, end], summed per bin.

const round = (x, d = 3) => (x === null || x === undefined || !Number.isFinite(x) ? null : Number(x.toFixed(d)));

/** Ladder: [{id, level, kbps}] from the manifest event, else from the bitrates seen in requests. */
function ladder(events) {
  const m = events.find((e) => e.type === 'manifest');
  if (m && Array.isArray(m.representations) && m.representations.length) {
    return m.representations
      .map((r) => ({ id: String(r.id), kbps: r.bandwidth / 1000 }))
      .sort((a, b) => a.kbps - b.kbps)
      .map((r, level) => Object.assign(r, { level }));
  }
  const seen = new Map();
  for (const e of events) {
    if (e.type === 'request' && e.kind === 'media' && e.bitrate) seen.set(String(e.repId), e.bitrate / 1000);
  }
  return [...seen.entries()]
    .map(([id, kbps]) => ({ id, kbps }))
    .sort((a, b) => a.kbps - b.kbps)
    .map((r, level) => Object.assign(r, { level }));
}

function levelOf(e, lad) {
  if (Number.isInteger(e.level)) return e.level;
  const r = lad.find((x) => x.id === String(e.repId));
  return r ? r.level : null;
}

/** Completed video media-segment requests, in issue order, each with a level. */
function requests(events, mediaType = 'video') {
  const lad = ladder(events);
  return events
    .filter((e) => e.type === 'request' && e.kind === 'media' && (e.mediaType || 'video') === mediaType)
    .map((e, i) => Object.assign({}, e, { level: levelOf(e, lad), _i: i }))
    .sort((a, b) => (a.start ?? a.t) - (b.start ?? b.t) || a._i - b._i);
}

/** Last playback position the player reported. */
function finalPosition(events) {
  for (let i = events.length - 1; i >= 0; i--) {
    const p = events[i].position;
    if (Number.isFinite(p)) return p;
  }
  return 0;
}

/** Wall time (s) at which playback first reached media position p, or null if it never did;
 * interpolated between the events that carry a position (samples every second, playing,
 * waiting, end...). */
function timeAtPosition(events, p) {
  let prev = null;
  for (const e of events) {
    if (!Number.isFinite(e.position)) continue;
    if (e.position >= p) {
      if (!prev || e.position <= prev.position) return e.t;
      return prev.t + ((e.t - prev.t) * (p - prev.position)) / (e.position - prev.position);
    }
    prev = e;
  }
  return null;
}

/** The segment versions that were played, one per segment index, in media order. A segment can
 * be downloaded more than once (dash.js replaces buffered segments after a switch); the played
 * version is the last one completed by the time playback reached the segment's start, or the
 * first one to complete when none had (playback was waiting for it). Segments whose start
 * playback never reached are left out. */
function playedSegments(events, mediaType = 'video') {
  const byIndex = new Map();
  for (const r of requests(events, mediaType).sort((a, b) => (a.end ?? a.t) - (b.end ?? b.t))) {
    const k = r.index ?? r.mediaStart;
    if (!byIndex.has(k)) byIndex.set(k, []);
    byIndex.get(k).push(r);
  }
  const ended = events.some((e) => e.type === 'ended');
  const out = [];
  for (const versions of byIndex.values()) {
    const start = Number.isFinite(versions[0].mediaStart) ? versions[0].mediaStart : null;
    let reached = start === null ? null : timeAtPosition(events, start + 1e-3);
    if (reached === null && ended) reached = Infinity;
    if (reached === null) continue;
    const before = versions.filter((v) => (v.end ?? v.t) <= reached);
    out.push(before.length ? before[before.length - 1] : versions[0]);
  }
  return out.sort((a, b) => (a.mediaStart ?? 0) - (b.mediaStart ?? 0));
}

/** Seconds of media in the presentation (the manifest event's duration), or null. */
function mediaDuration(events) {
  const m = events.find((e) => e.type === 'manifest');
  return m && Number.isFinite(m.duration) && m.duration > 0 ? m.duration : null;
}

/** Seconds of media a segment holds: its nominal duration, cut at the end of the media (a
 * SegmentTemplate gives the last segment the nominal duration even when it is shorter). */
function segmentSeconds(s, end) {
  let d = Number.isFinite(s.duration) && s.duration > 0 ? s.duration : 1;
  if (end !== null && Number.isFinite(s.mediaStart) && s.mediaStart < end) d = Math.min(d, end - s.mediaStart);
  return d;
}

function averageBitrate(events) {
  const end = mediaDuration(events);
  let num = 0;
  let den = 0;
  for (const s of playedSegments(events)) {
    const d = segmentSeconds(s, end);
    num += (s.bitrate / 1000) * d;
    den += d;
  }
  return den > 0 ? num / den : null;
}

/** Mean bitrate over the media time actually played, weighted by which representation dash.js
 * said it rendered (QUALITY_CHANGE_RENDERED) while the position advanced. Unlike averageBitrate
 * it sees a segment that was replaced in the buffer while it played (dash.js's fast switching):
 * part of the segment counts at each level. Position is interpolated between the events that
 * carry one (samples every second), so a switch moves at most one sample interval's worth. */
function renderedBitrate(events) {
  const lad = ladder(events);
  const kbps = (level) => (lad[level] ? lad[level].kbps : null);
  const switches = events.filter((e) => e.type === 'quality_rendered' && Number.isInteger(e.to));
  if (!switches.length) return null;
  const pts = events.filter((e) => Number.isFinite(e.position)).map((e) => ({ t: e.t, p: e.position }));
  for (const s of switches) {
    const p = positionAt(pts, s.t);
    if (p !== null) pts.push({ t: s.t, p });
  }
  pts.sort((a, b) => a.t - b.t);
  let level = Number.isInteger(switches[0].from) ? switches[0].from : switches[0].to;
  let k = 0;
  let num = 0;
  let den = 0;
  for (let i = 1; i < pts.length; i++) {
    while (k < switches.length && switches[k].t <= pts[i - 1].t) level = switches[k++].to;
    const dp = pts[i].p - pts[i - 1].p;
    if (dp > 0 && kbps(level) !== null) {
      num += kbps(level) * dp;
      den += dp;
    }
  }
  return den > 0 ? num / den : null;
}

function positionAt(pts, t) {
  let prev = null;
  for (const x of pts) {
    if (x.t >= t) {
      if (!prev || x.t === prev.t) return x.p;
      return prev.p + ((x.p - prev.p) * (t - prev.t)) / (x.t - prev.t);
    }
    prev = x;
  }
  return prev ? prev.p : null;
}

function qualitySwitches(events) {
  const reqs = requests(events).filter((r) => r.level !== null);
  let count = 0;
  let magnitude = 0;
  for (let i = 1; i < reqs.length; i++) {
    const d = Math.abs(reqs[i].level - reqs[i - 1].level);
    if (d > 0) count++;
    magnitude += d;
  }
  return { count, magnitude };
}

function startupDelay(events) {
  const p = events.find((e) => e.type === 'playing');
  return p ? p.t : null;
}

function stalls(events) {
  const out = [];
  let started = false;
  let open = null;
  for (const e of events) {
    if (e.type === 'playing') {
      if (open !== null) {
        out.push({ start: open, end: e.t, duration: e.t - open, open: false });
        open = null;
      }
      started = true;
    } else if (e.type === 'waiting' && started && open === null) {
      open = e.t;
    } else if ((e.type === 'ended' || e.type === 'end') && open !== null) {
      out.push({ start: open, end: e.t, duration: e.t - open, open: e.type !== 'ended' });
      open = null;
    }
  }
  if (open !== null) {
    const last = events.length ? events[events.length - 1].t : open;
    out.push({ start: open, end: last, duration: last - open, open: true });
  }
  return out;
}

function outageDuration(events) {
  return stalls(events).reduce((s, x) => s + x.duration, 0);
}

function successRate(events) {
  const played = playedSegments(events);
  const lad = ladder(events);
  if (!played.length || !lad.length) return null;
  const top = lad[lad.length - 1].level;
  return played.filter((s) => s.level === top).length / played.length;
}

/** [{t, kbps}] per bin of binSeconds, from 0 to the last request's end. */
function throughputOverTime(events, binSeconds = 1) {
  if (!(binSeconds > 0)) throw new RangeError('binSeconds must be positive');
  const reqs = events.filter((e) => e.type === 'request' && Number.isFinite(e.bytes) && Number.isFinite(e.end));
  if (!reqs.length) return [];
  const last = Math.max(...reqs.map((r) => r.end));
  const bins = new Array(Math.max(1, Math.ceil(last / binSeconds))).fill(0);
  for (const r of reqs) {
    const a = Number.isFinite(r.firstByte) ? r.firstByte : Number.isFinite(r.start) ? r.start : r.end;
    const b = r.end;
    if (b <= a) {
      bins[Math.min(bins.length - 1, Math.floor(b / binSeconds))] += r.bytes;
      continue;
    }
    for (let i = Math.floor(a / binSeconds); i * binSeconds < b && i < bins.length; i++) {
      const lo = Math.max(a, i * binSeconds);
      const hi = Math.min(b, (i + 1) * binSeconds);
      if (hi > lo) bins[i] += (r.bytes * (hi - lo)) / (b - a);
    }
  }
  return bins.map((bytes, i) => ({ t: i * binSeconds, kbps: (bytes * 8) / binSeconds / 1000 }));
}

/** Changes of the rendered quality (dash.js QUALITY_CHANGE_RENDERED), for comparison with the
 * request-based counts. */
function renderedSwitches(events) {
  return events.filter((e) => e.type === 'quality_rendered' && e.from !== null && e.from !== e.to).length;
}

function droppedFrames(events) {
  for (let i = events.length - 1; i >= 0; i--) {
    if (Number.isFinite(events[i].droppedFrames)) {
      return { dropped: events[i].droppedFrames, total: events[i].totalFrames ?? null };
    }
  }
  return { dropped: null, total: null };
}

/** Requests (video media, issue order) for a segment index that an earlier request already
 * fetched: {count, bytes, share} with share = their bytes / all video media bytes (null without
 * bytes). dash.js's fast switching (on by default outside low-latency mode) downloads the
 * segments just ahead of the playhead again after an up-switch; the bandwidth this takes is not
 * spent on the buffer's end. */
function redownloads(events) {
  const seen = new Set();
  let count = 0;
  let bytes = 0;
  let total = 0;
  for (const r of requests(events)) {
    const b = Number.isFinite(r.bytes) ? r.bytes : 0;
    total += b;
    if (!Number.isInteger(r.index)) continue;
    if (seen.has(r.index)) {
      count += 1;
      bytes += b;
    }
    seen.add(r.index);
  }
  return { count, bytes, share: total > 0 ? bytes / total : null };
}

function median(xs) {
  if (!xs.length) return null;
  const v = [...xs].sort((a, b) => a - b);
  const h = Math.floor(v.length / 2);
  return v.length % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

/** How well dash.js's throughput estimate predicted each video media download: for every
 * request with a first byte, |estimate / realized - 1|, where estimate is the last `sample`
 * event's throughputKbps at or before the request's start and realized is the request's bytes
 * over (end - firstByte). {count, median} (median null without a pair). A path mix whose delays
 * differ makes segment downloads uneven, which is how the GA paper says delay differences
 * mislead the player (its section V). */
function estimateError(events) {
  const samples = events
    .filter((e) => e.type === 'sample' && Number.isFinite(e.t) && e.throughputKbps > 0)
    .sort((a, b) => a.t - b.t);
  const errs = [];
  for (const r of requests(events)) {
    const t0 = r.start ?? r.t;
    const a = r.firstByte;
    if (!Number.isFinite(a) || !Number.isFinite(r.end) || !(r.end > a) || !(r.bytes > 0)) continue;
    let est = null;
    for (const s of samples) {
      if (s.t > t0) break;
      est = s.throughputKbps;
    }
    if (est === null) continue;
    const realized = (r.bytes * 8) / (r.end - a) / 1000;
    errs.push(Math.abs(est / realized - 1));
  }
  return { count: errs.length, median: median(errs) };
}

/** One flat record of every metric (the CSV row's QoE part). */
function summarize(events) {
  const reqs = requests(events);
  const played = playedSegments(events);
  const sw = qualitySwitches(events);
  const st = stalls(events);
  const df = droppedFrames(events);
  const allReqs = events.filter((e) => e.type === 'request');
  const bytes = allReqs.reduce((s, e) => s + (e.bytes || 0), 0);
  const first = allReqs.length ? Math.min(...allReqs.map((e) => e.start ?? e.t)) : null;
  const last = allReqs.length ? Math.max(...allReqs.map((e) => e.end ?? e.t)) : null;
  const end = events.find((e) => e.type === 'end');
  const redo = redownloads(events);
  const est = estimateError(events);
  return {
    end_reason: end ? end.reason : null,
    startup_delay_s: round(startupDelay(events)),
    avg_bitrate_kbps: round(averageBitrate(events), 1),
    avg_rendered_kbps: round(renderedBitrate(events), 1),
    switches_ga: sw.magnitude,
    switches_count: sw.count,
    switches_rendered: renderedSwitches(events),
    outage_s: round(outageDuration(events)),
    stalls: st.length,
    success_rate: round(successRate(events), 4),
    segments_requested: reqs.length,
    segments_played: played.length,
    redownloads: redo.count,
    redownload_share: round(redo.share, 4),
    estimate_error: round(est.median, 4),
    abandoned: events.filter((e) => e.type === 'abandoned').length,
    failed_requests: events.filter((e) => e.type === 'request_failed').length,
    bytes,
    mean_throughput_kbps: first !== null && last > first ? round((bytes * 8) / (last - first) / 1000, 1) : null,
    dropped_frames: df.dropped,
    total_frames: df.total,
    final_position_s: round(finalPosition(events)),
  };
}

module.exports = {
  ladder,
  mediaDuration,
  requests,
  timeAtPosition,
  playedSegments,
  renderedSwitches,
  averageBitrate,
  renderedBitrate,
  qualitySwitches,
  startupDelay,
  stalls,
  outageDuration,
  successRate,
  redownloads,
  estimateError,
  throughputOverTime,
  droppedFrames,
  summarize,
};

// `node lib/metrics.js SESSION.json...`: every metric of recorded sessions (files holding a
// player's `events`, e.g. the committed test/fixtures), one JSON line each; a file that cannot
// be read or holds no event list is one line on stderr and exit 2, before anything is printed.
if (require.main === module) {
  const fs = require('fs');
  const files = process.argv.slice(2);
  if (!files.length) {
    process.stderr.write('usage: node lib/metrics.js SESSION.json...\n');
    process.exit(2);
  }
  const out = [];
  for (const f of files) {
    let events;
    try {
      events = JSON.parse(fs.readFileSync(f, 'utf8')).events;
    } catch (e) {
      process.stderr.write(`metrics.js: ${f}: ${e.message}\n`);
      process.exit(2);
    }
    if (!Array.isArray(events)) {
      process.stderr.write(`metrics.js: ${f}: no "events" list\n`);
      process.exit(2);
    }
    out.push(JSON.stringify({ file: f, ...summarize(events) }));
  }
  process.stdout.write(out.join('\n') + '\n');
}

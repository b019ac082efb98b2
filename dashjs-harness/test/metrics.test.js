'use strict';
// Unit tests of lib/metrics.js on recorded event sequences (test/fixtures: real dash.js 5.2.1
// sessions in Debian's headless Chromium, expected values worked out by hand from the event
// lists) and on small hand-made sequences for the edge cases.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const m = require('../lib/metrics');

const fixture = (name) => require(path.join(__dirname, 'fixtures', name)).events;
const close = (a, b, eps = 1e-6) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

const LADDER = {
  type: 'manifest',
  t: 0.1,
  representations: [1500, 2000, 2500, 2600].map((k, i) => ({ id: String(i), level: i, bandwidth: k * 1000 })),
};
let clock = 0;
const req = (index, level, fields = {}) => {
  clock += 1;
  return Object.assign({
    t: clock, type: 'request', mediaType: 'video', kind: 'media', repId: String(level), level,
    bitrate: LADDER.representations[level].bandwidth, index, mediaStart: index * 4, duration: 4,
    bytes: 1000, start: clock - 0.5, firstByte: clock - 0.4, end: clock,
  }, fields);
};

test('recorded two-path session: switches per the GA definition and the plain count', () => {
  const ev = fixture('twopath-2x2mbit-20s.json');
  // issued levels 0,0,0,1,0,0,0,2,0,0,1,0,0,0,1,0,0,0
  assert.deepEqual(m.requests(ev).map((r) => r.level), [0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
  assert.deepEqual(m.qualitySwitches(ev), { count: 8, magnitude: 10 });
});

test('recorded two-path session: stalls after playback started, startup delay', () => {
  const ev = fixture('twopath-2x2mbit-20s.json');
  close(m.startupDelay(ev), 1.584);
  const st = m.stalls(ev); // the waiting at 0.124 precedes the first playing: startup, not a stall
  assert.equal(st.length, 3);
  close(st[0].duration, 8.294 - 7.464);
  close(st[1].duration, 14.361 - 12.296);
  close(st[2].duration, 17.889 - 16.347);
  assert.ok(st.every((s) => !s.open));
  close(m.outageDuration(ev), 0.83 + 2.065 + 1.542);
});

test('recorded two-path session: the higher-quality re-downloads came too late to be played', () => {
  const ev = fixture('twopath-2x2mbit-20s.json');
  const played = m.playedSegments(ev);
  assert.equal(played.length, 10);
  assert.deepEqual(played.map((s) => s.level), new Array(10).fill(0));
  assert.equal(m.averageBitrate(ev), 1500);
  assert.equal(m.successRate(ev), 0);
  // dash.js itself rendered only the lowest representation
  assert.equal(m.renderedSwitches(ev), 0);
});

test('recorded loopback session: first segment low, the rest at the top', () => {
  const ev = fixture('loopback-20s.json');
  assert.deepEqual(m.qualitySwitches(ev), { count: 1, magnitude: 3 });
  const played = m.playedSegments(ev);
  assert.deepEqual(played.map((s) => s.level), [0, 3, 3, 3, 3, 3, 3, 3, 3, 3]);
  close(m.averageBitrate(ev), (1500 * 2 + 2600 * 18) / 20);
  close(m.successRate(ev), 0.9);
  assert.equal(m.outageDuration(ev), 0);
  close(m.startupDelay(ev), 0.663);
  assert.equal(m.renderedSwitches(ev), 1);
  assert.deepEqual(m.droppedFrames(ev), { dropped: 0, total: 500 });
});

test('recorded sessions: throughput over time accounts for every byte', () => {
  for (const name of ['loopback-20s.json', 'twopath-2x2mbit-20s.json']) {
    const ev = fixture(name);
    const bins = m.throughputOverTime(ev, 0.5);
    const bytes = ev.filter((e) => e.type === 'request').reduce((s, e) => s + e.bytes, 0);
    close(bins.reduce((s, b) => s + (b.kbps * 1000 * 0.5) / 8, 0), bytes, 1e-3);
    assert.ok(bins.every((b, i) => b.t === i * 0.5 && b.kbps >= 0));
  }
  // two paths of 2 Mbit/s: no half-second carries more than the 4 Mbit/s both can
  const twopath = m.throughputOverTime(fixture('twopath-2x2mbit-20s.json'), 1);
  assert.ok(Math.max(...twopath.map((b) => b.kbps)) < 4200);
});

test('summarize: one flat record with every metric', () => {
  const s = m.summarize(fixture('twopath-2x2mbit-20s.json'));
  assert.equal(s.end_reason, 'ended');
  assert.equal(s.switches_ga, 10);
  assert.equal(s.switches_count, 8);
  assert.equal(s.segments_requested, 18);
  assert.equal(s.segments_played, 10);
  assert.equal(s.redownloads, 8); // 18 requests for 10 indices
  assert.equal(s.stalls, 3);
  assert.equal(s.final_position_s, 20);
  assert.equal(s.dropped_frames, 3);
});

test('hand-made: switches count each change; magnitude sums level distances', () => {
  clock = 0;
  const ev = [LADDER, req(0, 0), req(1, 3), req(2, 3), req(3, 1), req(4, 2)];
  assert.deepEqual(m.qualitySwitches(ev), { count: 3, magnitude: 3 + 2 + 1 });
  assert.deepEqual(m.qualitySwitches([LADDER, req(0, 2)]), { count: 0, magnitude: 0 });
  assert.deepEqual(m.qualitySwitches([]), { count: 0, magnitude: 0 });
});

test('hand-made: switches follow issue order, not completion order', () => {
  const ev = [LADDER,
    req(0, 0, { start: 0, end: 5 }),
    req(1, 3, { start: 1, end: 2 }),
    req(2, 0, { start: 3, end: 4 })];
  assert.deepEqual(m.qualitySwitches(ev), { count: 2, magnitude: 6 });
});

test('hand-made: average bitrate is duration-weighted over played segments', () => {
  clock = 0;
  const ev = [LADDER, req(0, 0, { duration: 4 }), req(1, 3, { duration: 4, mediaStart: 4 }),
    req(2, 3, { duration: 2, mediaStart: 8 }), { t: 20, type: 'ended', position: 10 }];
  close(m.averageBitrate(ev), (1500 * 4 + 2600 * 4 + 2600 * 2) / 10);
  close(m.successRate(ev), 2 / 3);
});

test('hand-made: a last segment shorter than the others weighs its real media time', () => {
  clock = 0;
  // 10 s of media in 4 s segments: the last holds 2 s although dash.js reports 4
  const ev = [Object.assign({ duration: 10 }, LADDER), req(0, 0), req(1, 0, { mediaStart: 4 }),
    req(2, 3, { mediaStart: 8 }), { t: 20, type: 'ended', position: 10 }];
  assert.equal(m.mediaDuration(ev), 10);
  close(m.averageBitrate(ev), (1500 * 8 + 2600 * 2) / 10);
  // without the duration every segment counts its nominal 4 s
  close(m.averageBitrate(ev.slice(1)), (1500 * 8 + 2600 * 4) / 12);
});

test('hand-made: segments playback never reached are not played', () => {
  clock = 0;
  const ev = [LADDER, req(0, 3), req(1, 3), req(2, 0),
    { t: 5, type: 'playing', position: 0 }, { t: 10, type: 'sample', position: 5 },
    { t: 11, type: 'end', reason: 'timeout', position: 5.5 }];
  // segments start at 0, 4, 8: the third was never reached
  assert.deepEqual(m.playedSegments(ev).map((s) => s.index), [0, 1]);
  assert.equal(m.successRate(ev), 1);
  assert.equal(m.averageBitrate(ev), 2600);
});

test('hand-made: a replacement counts only if it arrived before playback reached the segment', () => {
  const ev = [LADDER,
    req(0, 0, { start: 0, end: 1 }),
    req(1, 0, { start: 1, end: 2 }),
    { t: 2, type: 'playing', position: 0 },
    req(1, 3, { start: 2, end: 3 }), // in time: position 4 is reached at t=6
    req(0, 3, { start: 3, end: 4 }), // too late: segment 0 was playing since t=2
    { t: 10, type: 'sample', position: 8 },
    { t: 11, type: 'end', reason: 'timeout', position: 8.5 }];
  assert.deepEqual(m.playedSegments(ev).map((s) => [s.index, s.level]), [[0, 0], [1, 3]]);
  close(m.timeAtPosition(ev, 4), 6);
});

test('hand-made: stalls before playback starts are startup; an unfinished stall is open', () => {
  const ev = [{ t: 0.1, type: 'waiting', position: 0 }, { t: 1, type: 'playing', position: 0 },
    { t: 3, type: 'waiting', position: 2 }, { t: 4, type: 'waiting', position: 2 },
    { t: 5, type: 'playing', position: 2 }, { t: 7, type: 'waiting', position: 4 },
    { t: 9, type: 'end', reason: 'timeout', position: 4 }];
  const st = m.stalls(ev);
  assert.deepEqual(st.map((s) => [s.start, s.end, s.open]), [[3, 5, false], [7, 9, true]]);
  assert.equal(m.outageDuration(ev), 4);
  assert.equal(m.startupDelay(ev), 1);
});

test('hand-made: re-downloads are later requests of an index already fetched', () => {
  clock = 0;
  // dash.js's fast switching: index 0 at level 0, up-switch, index 0 again at level 2, then on
  const ev = [LADDER, req(0, 0), req(0, 2, { bytes: 3000 }), req(1, 2, { bytes: 3000 }), req(1, 0), req(2, 0)];
  const r = m.redownloads(ev);
  assert.deepEqual([r.count, r.bytes], [2, 4000]);
  close(r.share, 4000 / 9000);
  assert.deepEqual(m.redownloads([LADDER, req(0, 0), req(1, 1)]), { count: 0, bytes: 0, share: 0 });
  assert.deepEqual(m.redownloads([LADDER]), { count: 0, bytes: 0, share: null });
  const s = m.summarize(ev);
  assert.deepEqual([s.redownloads, s.redownload_share], [2, 0.4444]);
});

test('hand-made: estimate error pairs each download with the estimate sampled before it', () => {
  clock = 0;
  const sample = (t, kbps) => ({ t, type: 'sample', position: 0, throughputKbps: kbps });
  // req(i) starts at clock - 0.5, first byte at clock - 0.4, ends at clock: 1000 bytes in 0.4 s
  // = 20 kbit/s realized
  const ev = [
    LADDER,
    sample(0.2, 10), // before the first request: estimate 10 -> |10/20 - 1| = 0.5
    req(0, 0),
    sample(1.4, 30), // before the second (starts at 1.5): |30/20 - 1| = 0.5
    sample(1.6, 999), // after its start: not used for it
    req(1, 0),
    sample(2.5, 20), // the third starts at 2.5: a sample at that instant counts: 0
    req(2, 0),
  ];
  const r = m.estimateError(ev);
  assert.equal(r.count, 3);
  close(r.median, 0.5);
  // no estimate before any request: nothing to pair
  assert.deepEqual(m.estimateError([LADDER, req(3, 0)]), { count: 0, median: null });
  assert.equal(m.summarize(ev).estimate_error, 0.5);
});

test('hand-made: no playback at all', () => {
  const ev = [LADDER, { t: 0.1, type: 'waiting', position: 0 }, { t: 30, type: 'end', reason: 'timeout', position: 0 }];
  assert.equal(m.startupDelay(ev), null);
  assert.equal(m.outageDuration(ev), 0);
  assert.equal(m.averageBitrate(ev), null);
  assert.equal(m.successRate(ev), null);
  assert.deepEqual(m.throughputOverTime(ev), []);
  const s = m.summarize(ev);
  assert.equal(s.avg_bitrate_kbps, null);
  assert.equal(s.end_reason, 'timeout');
});

test('hand-made: ladder falls back to the requests when the manifest event is missing', () => {
  const ev = [
    { type: 'request', kind: 'media', mediaType: 'video', repId: 'hi', bitrate: 5e6, index: 0, mediaStart: 0, duration: 6, start: 0, end: 1, bytes: 1 },
    { type: 'request', kind: 'media', mediaType: 'video', repId: 'lo', bitrate: 325e3, index: 1, mediaStart: 6, duration: 6, start: 1, end: 2, bytes: 1 },
    { t: 3, type: 'ended', position: 12 },
  ];
  assert.deepEqual(m.ladder(ev).map((r) => [r.id, r.level]), [['lo', 0], ['hi', 1]]);
  assert.deepEqual(m.qualitySwitches(ev), { count: 1, magnitude: 1 });
  close(m.successRate(ev), 0.5);
});

test('hand-made: throughput bins split a transfer across bin edges', () => {
  const ev = [{ t: 2, type: 'request', kind: 'media', bytes: 3000, start: 0.2, firstByte: 0.5, end: 2 }];
  const bins = m.throughputOverTime(ev, 1);
  assert.equal(bins.length, 2);
  close(bins[0].kbps, (1000 * 8) / 1000); // 0.5..1.0 of 0.5..2.0 -> 1000 bytes
  close(bins[1].kbps, (2000 * 8) / 1000);
  assert.throws(() => m.throughputOverTime(ev, 0), RangeError);
});

test('recorded Mininet session: a segment replaced while it played', () => {
  const ev = fixture('mininet-2clients-2mbit-20s.json');
  // every segment started playing in its level-0 version ...
  assert.deepEqual(m.playedSegments(ev).map((s) => s.level), new Array(10).fill(0));
  assert.equal(m.averageBitrate(ev), 1500);
  // ... but dash.js rendered level 3 for the last ~0.12 s of segment 0 (t 4.27-4.54) and level 1
  // for ~0.75 s of segment 4 (t 12.49-13.77): about 1500 + (0.12 * 1100 + 0.75 * 500) / 20 = 1525,
  // give or take the one-second position samples
  const r = m.renderedBitrate(ev);
  assert.ok(r > 1515 && r < 1550, String(r));
  assert.equal(m.renderedSwitches(ev), 4);
  assert.deepEqual(m.qualitySwitches(ev), { count: 6, magnitude: 10 });
});

test('hand-made: rendered bitrate weights levels by played media time', () => {
  const ev = [LADDER,
    { t: 1, type: 'playing', position: 0 },
    { t: 1, type: 'quality_rendered', from: null, to: 0 },
    { t: 3, type: 'quality_rendered', from: 0, to: 3 }, // at position 2
    { t: 4, type: 'waiting', position: 3 },
    { t: 6, type: 'playing', position: 3 }, // a stall adds no media time
    { t: 7, type: 'quality_rendered', from: 3, to: 1 }, // at position 4
    { t: 11, type: 'ended', position: 8 }];
  close(m.renderedBitrate(ev), (1500 * 2 + 2600 * 2 + 2000 * 4) / 8);
  assert.equal(m.renderedBitrate([LADDER, { t: 1, type: 'playing', position: 0 }]), null);
});

test('metrics.js as a command: one JSON line per recorded session, bad files refused', () => {
  const { spawnSync } = require('child_process');
  const os = require('os');
  const fs = require('fs');
  const cli = path.join(__dirname, '..', 'lib', 'metrics.js');
  const fx = ['loopback-20s.json', 'twopath-2x2mbit-20s.json'].map((f) => path.join(__dirname, 'fixtures', f));
  const r = spawnSync(process.execPath, [cli, ...fx], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.file), fx);
  assert.deepEqual(lines[1], { file: fx[1], ...m.summarize(fixture('twopath-2x2mbit-20s.json')) });
  const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mpqoe-metrics-')), 'bad.json');
  fs.writeFileSync(bad, '{"clients": []}');
  const b = spawnSync(process.execPath, [cli, fx[0], bad], { encoding: 'utf8' });
  assert.equal(b.status, 2);
  assert.equal(b.stdout, '');
  assert.match(b.stderr, /bad\.json: no "events" list/);
  const n = spawnSync(process.execPath, [cli], { encoding: 'utf8' });
  assert.equal(n.status, 2);
  assert.match(n.stderr, /^usage: /);
});

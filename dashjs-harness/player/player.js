// The measuring player: dash.js 5 with its default ABR (throughput + BOLA, "dynamic"), recording
// one event list that the runner reads back as JSON (window.__qoe.result()).
//
// Query parameters: mpd (URL, required), settings (JSON for player.updateSettings), maxSeconds
// (watchdog: stop and report "timeout" after this long; default 600), sampleMs (throughput and
// buffer samples, default 1000), label (free text copied into the result).
//
// Every event has t, seconds since the player was created (meta.t0 is that instant in Unix ms, so
// server-log times compare directly). Event types:
//   manifest          duration (s of media), representations [{id, level, bandwidth, width,
//                     height}] (level 0 = lowest)
//   request           one completed HTTP request of a segment: mediaType, kind (init|media), url,
//                     repId, level, bitrate, index, mediaStart, duration, bytes, start, firstByte, end
//   request_failed    same fields, plus error
//   abandoned         a media request dash.js gave up (abandon rule): url, repId, level, index
//   quality_requested from, to (levels), reason
//   quality_rendered  from, to (levels)
//   play | playing | waiting | pause | seeking | ended   the video element's own events, position
//   sample            every sampleMs: position, buffer (s), level, throughputKbps (dash.js's
//                     estimate), droppedFrames, totalFrames
//   error             message
//   stopped_at_end    playback stopped at the end without 'ended' (player/end.js): position,
//                     duration; the end event that follows has reason ended
//   end               reason (ended | timeout | error), position, droppedFrames, totalFrames
(function () {
  'use strict';
  const q = new URLSearchParams(location.search);
  const t0 = Date.now();
  const now = () => (Date.now() - t0) / 1000;
  const rel = (d) => (d ? (new Date(d).getTime() - t0) / 1000 : null);
  const events = [];
  const video = document.getElementById('video');
  const statusEl = document.getElementById('status');
  const levels = new Map(); // representation id -> level
  let done = false;
  let endReason = null;
  let player = null;

  const log = (type, fields) => {
    const e = Object.assign({ t: Number(now().toFixed(4)), type }, fields || {});
    events.push(e);
    return e;
  };
  const levelOf = (rep) => (rep && levels.has(String(rep.id)) ? levels.get(String(rep.id)) : null);
  const frames = () => {
    const p = video.getVideoPlaybackQuality ? video.getVideoPlaybackQuality() : null;
    return p ? { droppedFrames: p.droppedVideoFrames, totalFrames: p.totalVideoFrames } : {};
  };

  function finish(reason) {
    if (done) return;
    endReason = reason;
    log('end', Object.assign({ reason, position: video.currentTime }, frames()));
    done = true;
    try { player && player.reset(); } catch (e) { /* already torn down */ }
  }

  window.__qoe = {
    get done() { return done; },
    status() {
      return {
        t: now(), position: video.currentTime, state: done ? 'done:' + endReason : (video.paused ? 'paused' : 'playing'),
        level: player && !done ? levelOf(player.getCurrentRepresentationForType('video')) : null,
        buffer: player && !done ? player.getBufferLength('video') : null, events: events.length,
      };
    },
    result() {
      return {
        meta: {
          t0, userAgent: navigator.userAgent, dashjs: window.dashjs ? dashjs.Version || null : null,
          mpd: q.get('mpd'), label: q.get('label'), settings: settings, endReason,
        },
        events,
      };
    },
    stop(reason) { finish(reason || 'stopped'); },
  };

  let settings = {};
  try {
    settings = q.get('settings') ? JSON.parse(q.get('settings')) : {};
  } catch (e) {
    log('error', { message: 'bad settings JSON: ' + e.message });
    finish('error');
    return;
  }
  const mpd = q.get('mpd');
  if (!mpd || !window.dashjs) {
    log('error', { message: !mpd ? 'no mpd parameter' : 'dash.js did not load' });
    finish('error');
    return;
  }
  const maxSeconds = Number(q.get('maxSeconds') || 600);
  const sampleMs = Number(q.get('sampleMs') || 1000);

  let pausedAt = null; // now() of the last 'pause' not followed by a 'play'
  for (const ev of ['play', 'playing', 'waiting', 'pause', 'seeking', 'ended']) {
    video.addEventListener(ev, () => {
      log(ev, { position: video.currentTime });
      if (ev === 'pause') pausedAt = now();
      else if (ev === 'play') pausedAt = null;
      if (ev === 'ended') finish('ended');
    });
  }
  video.addEventListener('error', () => {
    log('error', { message: 'video element: ' + (video.error ? video.error.message || video.error.code : '?') });
  });

  const E = dashjs.MediaPlayer.events;
  player = dashjs.MediaPlayer().create();
  player.updateSettings({ debug: { logLevel: dashjs.Debug.LOG_LEVEL_WARNING } });
  player.updateSettings(settings);

  player.on(E.STREAM_INITIALIZED, (e) => {
    const reps = player.getRepresentationsByType('video').slice().sort((a, b) => a.bandwidth - b.bandwidth);
    reps.forEach((r, i) => levels.set(String(r.id), i));
    const d = e && e.streamInfo && Number.isFinite(e.streamInfo.duration) ? e.streamInfo.duration : video.duration;
    log('manifest', {
      duration: Number.isFinite(d) ? d : null,
      representations: reps.map((r, i) => ({ id: String(r.id), level: i, bandwidth: r.bandwidth, width: r.width, height: r.height })),
    });
  });

  const requestFields = (r, response) => ({
    mediaType: r.mediaType,
    kind: r.type === 'InitializationSegment' ? 'init' : 'media',
    url: r.url,
    repId: r.representation ? String(r.representation.id) : null,
    level: levelOf(r.representation),
    bitrate: r.representation ? r.representation.bandwidth : null,
    index: Number.isFinite(r.index) ? r.index : null,
    mediaStart: Number.isFinite(r.startTime) ? r.startTime : null,
    duration: Number.isFinite(r.duration) ? r.duration : null,
    bytes: response && response.byteLength !== undefined ? response.byteLength : (Number.isFinite(r.bytesLoaded) ? r.bytesLoaded : null),
    start: rel(r.startDate),
    firstByte: rel(r.firstByteDate),
    end: rel(r.endDate),
  });
  player.on(E.FRAGMENT_LOADING_COMPLETED, (e) => {
    if (!e.request) return;
    if (e.error) log('request_failed', Object.assign(requestFields(e.request, null), { error: String(e.error.message || e.error) }));
    else log('request', requestFields(e.request, e.response));
  });
  player.on(E.FRAGMENT_LOADING_ABANDONED, (e) => {
    const r = e.request || {};
    log('abandoned', { url: r.url, repId: r.representation ? String(r.representation.id) : null, level: levelOf(r.representation), index: r.index });
  });
  player.on(E.QUALITY_CHANGE_REQUESTED, (e) => {
    if (e.mediaType !== 'video') return;
    log('quality_requested', { from: levelOf(e.oldRepresentation), to: levelOf(e.newRepresentation), reason: e.reason ? (e.reason.name || JSON.stringify(e.reason)) : null });
  });
  player.on(E.QUALITY_CHANGE_RENDERED, (e) => {
    if (e.mediaType !== 'video') return;
    log('quality_rendered', { from: levelOf(e.oldRepresentation), to: levelOf(e.newRepresentation) });
  });
  player.on(E.ERROR, (e) => {
    const err = e.error || {};
    log('error', { message: 'dash.js: ' + (err.message || err.code || JSON.stringify(err)) });
    finish('error');
  });

  const sampler = setInterval(() => {
    if (done) { clearInterval(sampler); return; }
    let kbps = null;
    try { kbps = player.getAverageThroughput('video'); } catch (e) { /* not yet measured */ }
    log('sample', Object.assign({
      position: video.currentTime,
      buffer: player.getBufferLength('video'),
      level: levelOf(player.getCurrentRepresentationForType('video')),
      throughputKbps: Number.isFinite(kbps) ? Math.round(kbps) : null,
    }, frames()));
    const s = window.__qoe.status();
    statusEl.textContent = JSON.stringify(s);
    if (mpqoeEnd.stoppedAtEnd(video.currentTime, video.duration, video.paused,
      pausedAt === null ? null : now() - pausedAt)) {
      log('stopped_at_end', { position: video.currentTime, duration: video.duration });
      finish('ended');
    }
    if (now() > maxSeconds) finish('timeout');
  }, sampleMs);

  player.initialize(video, mpd, true);
})();

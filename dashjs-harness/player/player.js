// The measuring player: one page for every player profile (players.json: which dash.js build,
// which settings), recording one event list that the runner reads back as JSON
// (window.__qoe.result()). Profile `modern` is dash.js 5 with its default ABR (throughput + BOLA,
// "dynamic"); profile `paper` is dash.js 2.5.0 set up as the GA paper's authors' reference player
// set it up. A thin adapter per dash.js API generation gives both the same event list.
//
// Query parameters: mpd (URL, required), player (profile name, default: players.json's default),
// settings (JSON for player.updateSettings, dash.js 5 only), maxSeconds (watchdog: stop and
// report "timeout" after this long; default 600), sampleMs (samples, default 1000), label (free
// text copied into the result).
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
//   sample            every sampleMs: position, buffer (s), level, quality (the ABR's current
//                     video level), bitrateKbps (kbit/s of the latest representation switch's
//                     target), throughputKbps (dash.js's estimate), droppedFrames, totalFrames;
//                     profile `paper` samples from STREAM_INITIALIZED on, as the reference player
//                     does (docs/dashjs-harness.md lists each field's source per profile)
//   error             message
//   stopped_at_end    playback stopped at the end without 'ended' (player/end.js): position,
//                     duration; the end event that follows has reason ended
//   end               reason (ended | timeout | error), position, droppedFrames, totalFrames
(function () {
  'use strict';
  const q = new URLSearchParams(location.search);
  let t0 = Date.now(); // reset when the player is created
  const now = () => (Date.now() - t0) / 1000;
  const rel = (d) => (d ? (new Date(d).getTime() - t0) / 1000 : null);
  const events = [];
  const video = document.getElementById('video');
  const statusEl = document.getElementById('status');
  const levels = new Map(); // representation id -> level
  let reps = []; // video representations, lowest bandwidth first: {id, bandwidth, width, height}
  let done = false;
  let endReason = null;
  let profileName = q.get('player') || null;
  let profile = null;
  let dash = null; // the adapter (below) around the dash.js player

  const log = (type, fields) => {
    const e = Object.assign({ t: Number(now().toFixed(4)), type }, fields || {});
    events.push(e);
    return e;
  };
  const levelOfId = (id) => (id !== null && id !== undefined && levels.has(String(id)) ? levels.get(String(id)) : null);
  const levelOf = (rep) => (rep ? levelOfId(rep.id) : null);
  const frames = () => {
    const p = video.getVideoPlaybackQuality ? video.getVideoPlaybackQuality() : null;
    return p ? { droppedFrames: p.droppedVideoFrames, totalFrames: p.totalVideoFrames } : {};
  };
  const safe = (fn) => {
    try {
      const v = fn();
      return v === undefined ? null : v;
    } catch (e) {
      return null; // not yet initialized
    }
  };
  const kbps = (bandwidth) => (Number.isFinite(bandwidth) ? Math.round(bandwidth / 1000) : null);

  function finish(reason) {
    if (done) return;
    endReason = reason;
    log('end', Object.assign({ reason, position: video.currentTime }, frames()));
    done = true;
    try { dash && dash.player.reset(); } catch (e) { /* already torn down */ }
  }
  function fail(message) {
    log('error', { message });
    finish('error');
  }

  window.__qoe = {
    get done() { return done; },
    status() {
      const live = dash && !done;
      return {
        t: now(), position: video.currentTime, state: done ? 'done:' + endReason : (video.paused ? 'paused' : 'playing'),
        level: live ? safe(dash.level) : null, buffer: live ? safe(() => dash.player.getBufferLength('video')) : null,
        events: events.length,
      };
    },
    result() {
      return {
        meta: {
          t0, userAgent: navigator.userAgent, player: profileName,
          dashjs: window.dashjs ? dashjs.Version || null : null,
          mpd: q.get('mpd'), label: q.get('label'), settings, calls: profile ? profile.calls : null, endReason,
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
    fail('bad settings JSON: ' + e.message);
    return;
  }
  const mpd = q.get('mpd');
  if (!mpd) {
    fail('no mpd parameter');
    return;
  }
  const maxSeconds = Number(q.get('maxSeconds') || 600);
  const sampleMs = Number(q.get('sampleMs') || 1000);

  // dash.js 5: representations are objects; events name them; settings through updateSettings.
  function adapter5() {
    const p = dashjs.MediaPlayer().create();
    p.updateSettings({ debug: { logLevel: dashjs.Debug.LOG_LEVEL_WARNING } });
    p.updateSettings(settings);
    const repOf = (r) => (r ? { id: String(r.id), bandwidth: r.bandwidth } : null);
    return {
      player: p,
      start() { p.initialize(video, mpd, true); },
      representations: () => p.getRepresentationsByType('video')
        .map((r) => ({ id: String(r.id), bandwidth: r.bandwidth, width: r.width, height: r.height })),
      requestRep: (r) => repOf(r.representation),
      times: (r) => ({ start: r.startDate, firstByte: r.firstByteDate, end: r.endDate }),
      qualityFrom: (e) => levelOf(e.oldRepresentation),
      qualityTo: (e) => levelOf(e.newRepresentation),
      errorMessage: (e) => { const err = e.error || {}; return err.message || err.code || JSON.stringify(err); },
      onStream() {},
      level: () => levelOf(p.getCurrentRepresentationForType('video')),
      // the representation the ABR switched to last (the one it downloads)
      quality: () => levelOf(p.getCurrentRepresentationForType('video')),
      bitrateKbps() {
        const sw = p.getDashMetrics().getCurrentRepresentationSwitch('video');
        const r = sw ? reps.find((x) => x.id === String(sw.to)) : null;
        return r ? kbps(r.bandwidth) : null;
      },
      buffer: () => p.getBufferLength('video'),
      throughputKbps() { const k = p.getAverageThroughput('video'); return Number.isFinite(k) ? Math.round(k) : null; },
    };
  }

  // dash.js 2.x: representations are quality indices (0 = lowest bandwidth: 2.x sorts them);
  // settings through setter calls; metrics through getDashMetrics() on getMetricsFor(type).
  function adapter2(E) {
    const p = dashjs.MediaPlayer().create();
    p.getDebug().setLogToBrowserConsole(false);
    let manifest = null;
    let periodIdx = 0;
    p.on(E.MANIFEST_LOADED, (e) => { manifest = e.data; });
    const repAt = (i) => (Number.isInteger(i) && i >= 0 && i < reps.length ? reps[i] : null);
    // representation ids of the manifest's video adaptation, in 2.x's order (bandwidth, lowest first)
    const manifestIds = () => {
      const period = manifest && manifest.Period_asArray ? manifest.Period_asArray[periodIdx] : null;
      const sets = period && period.AdaptationSet_asArray ? period.AdaptationSet_asArray : [];
      const isVideo = (a) => /video/.test(a.contentType || a.mimeType || (a.Representation_asArray && a.Representation_asArray[0].mimeType) || '');
      const set = sets.find(isVideo);
      return set ? set.Representation_asArray.slice().sort((a, b) => a.bandwidth - b.bandwidth).map((r) => String(r.id)) : [];
    };
    const metrics = () => p.getMetricsFor('video');
    return {
      player: p,
      start() {
        p.initialize(video, null, true);
        for (const [call, value] of Object.entries(profile.calls)) p[call](value);
        p.attachSource(mpd);
      },
      representations() {
        const ids = manifestIds();
        return p.getBitrateInfoListFor('video').map((b, i) => ({ id: ids[i] !== undefined ? ids[i] : String(b.qualityIndex), bandwidth: b.bitrate, width: b.width, height: b.height }));
      },
      requestRep: (r) => (r.representationId !== null && r.representationId !== undefined
        ? { id: String(r.representationId), bandwidth: (repAt(r.quality) || {}).bandwidth }
        : repAt(r.quality)),
      times: (r) => ({ start: r.requestStartDate, firstByte: r.firstByteDate, end: r.requestEndDate }),
      qualityFrom: (e) => (Number.isInteger(e.oldQuality) ? e.oldQuality : null),
      qualityTo: (e) => (Number.isInteger(e.newQuality) ? e.newQuality : null),
      errorMessage: (e) => {
        const ev = e.event || {};
        return [e.error, ev.message || ev.id || '', ev.url || ''].filter(Boolean).join(' ');
      },
      onStream(e) { if (e && e.streamInfo && Number.isInteger(e.streamInfo.index)) periodIdx = e.streamInfo.index; },
      level: () => p.getQualityFor('video'),
      quality: () => p.getQualityFor('video'),
      bitrateKbps() {
        const sw = p.getDashMetrics().getCurrentRepresentationSwitch(metrics());
        return sw ? kbps(p.getDashMetrics().getBandwidthForRepresentation(sw.to, periodIdx)) : null;
      },
      buffer: () => p.getDashMetrics().getCurrentBufferLevel(metrics()),
      throughputKbps: () => null, // 2.5.0 keeps its estimate inside the ABR controller
    };
  }

  let ticker = null;
  let sampling = false;
  let pausedAt = null; // now() of the last 'pause' not followed by a 'play'
  function tick() {
    if (done) { clearInterval(ticker); return; }
    if (sampling) {
      log('sample', Object.assign({
        position: video.currentTime,
        buffer: safe(dash.buffer),
        level: safe(dash.level),
        quality: safe(dash.quality),
        bitrateKbps: safe(dash.bitrateKbps),
        throughputKbps: safe(dash.throughputKbps),
      }, frames()));
    }
    const s = window.__qoe.status();
    statusEl.textContent = JSON.stringify(s);
    if (mpqoeEnd.stoppedAtEnd(video.currentTime, video.duration, video.paused,
      pausedAt === null ? null : now() - pausedAt)) {
      log('stopped_at_end', { position: video.currentTime, duration: video.duration });
      finish('ended');
    }
    if (now() > maxSeconds) finish('timeout');
  }
  function startTicker(withSamples) {
    clearInterval(ticker);
    sampling = withSamples;
    ticker = setInterval(tick, sampleMs);
  }

  function play() {
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
    t0 = Date.now();
    dash = profile.api === 2 ? adapter2(E) : adapter5();
    const p = dash.player;

    p.on(E.STREAM_INITIALIZED, (e) => {
      dash.onStream(e);
      reps = dash.representations().slice().sort((a, b) => a.bandwidth - b.bandwidth);
      reps.forEach((r, i) => levels.set(String(r.id), i));
      const d = e && e.streamInfo && Number.isFinite(e.streamInfo.duration) ? e.streamInfo.duration : video.duration;
      log('manifest', {
        duration: Number.isFinite(d) ? d : null,
        representations: reps.map((r, i) => ({ id: String(r.id), level: i, bandwidth: r.bandwidth, width: r.width, height: r.height })),
      });
      if (profile.samplesFrom === 'streamInitialized') startTicker(true);
    });

    const requestFields = (r, response) => {
      const rep = dash.requestRep(r);
      const tm = dash.times(r);
      return {
        mediaType: r.mediaType,
        kind: r.type === 'InitializationSegment' ? 'init' : 'media',
        url: r.url,
        repId: rep ? rep.id : null,
        level: levelOf(rep),
        bitrate: rep && Number.isFinite(rep.bandwidth) ? rep.bandwidth : null,
        index: Number.isFinite(r.index) ? r.index : null,
        mediaStart: Number.isFinite(r.startTime) ? r.startTime : null,
        duration: Number.isFinite(r.duration) ? r.duration : null,
        bytes: response && response.byteLength !== undefined ? response.byteLength : (Number.isFinite(r.bytesLoaded) ? r.bytesLoaded : null),
        start: rel(tm.start),
        firstByte: rel(tm.firstByte),
        end: rel(tm.end),
      };
    };
    p.on(E.FRAGMENT_LOADING_COMPLETED, (e) => {
      if (!e.request) return;
      if (e.error) log('request_failed', Object.assign(requestFields(e.request, null), { error: String(e.error.message || e.error) }));
      else log('request', requestFields(e.request, e.response));
    });
    p.on(E.FRAGMENT_LOADING_ABANDONED, (e) => {
      const r = e.request || {};
      const rep = dash.requestRep(r);
      log('abandoned', { url: r.url, repId: rep ? rep.id : null, level: levelOf(rep), index: r.index });
    });
    p.on(E.QUALITY_CHANGE_REQUESTED, (e) => {
      if (e.mediaType !== 'video') return;
      log('quality_requested', { from: dash.qualityFrom(e), to: dash.qualityTo(e), reason: e.reason ? (e.reason.name || JSON.stringify(e.reason)) : null });
    });
    p.on(E.QUALITY_CHANGE_RENDERED, (e) => {
      if (e.mediaType !== 'video') return;
      log('quality_rendered', { from: dash.qualityFrom(e), to: dash.qualityTo(e) });
    });
    p.on(E.ERROR, (e) => fail('dash.js: ' + dash.errorMessage(e)));

    startTicker(profile.samplesFrom !== 'streamInitialized');
    dash.start();
  }

  // the profile, then its dash.js build from the server's /dashjs/<profile>/ mount, then play
  fetch('players.json', { cache: 'no-store' })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error('players.json: HTTP ' + r.status))))
    .then((file) => {
      profileName = profileName || file.default;
      profile = file.players[profileName];
      if (!profile) throw new Error('unknown player profile ' + JSON.stringify(profileName));
      if (profile.api !== 5 && Object.keys(settings).length) throw new Error('settings apply to dash.js 5 profiles only');
      const s = document.createElement('script');
      s.src = `/dashjs/${profileName}/${profile.script}`;
      s.onload = () => (window.dashjs ? play() : fail('dash.js did not load'));
      s.onerror = () => fail(`dash.js did not load (${s.src})`);
      document.head.appendChild(s);
    })
    .catch((e) => fail(String(e && e.message ? e.message : e)));
})();

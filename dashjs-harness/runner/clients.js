'use strict';
// One headless Chromium per client (playwright-core driving Debian's chromium, never a downloaded
// browser), each playing the player page; results written atomically, one JSON per client plus an
// aggregate CSV and run.json (partial until every client has finished or failed).

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');
const metrics = require('../lib/metrics');

const WRAP = path.join(__dirname, 'chromium-wrap');

function writeAtomic(file, data) {
  const tmp = `${file}.tmp${process.pid}`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}
const writeJson = (file, obj) => writeAtomic(file, JSON.stringify(obj, null, 1) + '\n');

const CSV_COLUMNS = [
  'client', 'status', 'netns', 'transport', 'start_offset_s', 'wall_s', 'end_reason', 'startup_delay_s',
  'avg_bitrate_kbps', 'avg_rendered_kbps', 'switches_ga', 'switches_count', 'switches_rendered', 'outage_s', 'stalls', 'success_rate',
  'segments_requested', 'segments_played', 'redownloads', 'redownload_share', 'estimate_error', 'abandoned', 'failed_requests', 'bytes',
  'mean_throughput_kbps', 'dropped_frames', 'total_frames', 'final_position_s', 'error',
];

function csvCell(v) {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function toCsv(rows) {
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of rows) lines.push(CSV_COLUMNS.map((c) => csvCell(r[c])).join(','));
  return lines.join('\n') + '\n';
}

const sleep = (ms, signal) => new Promise((resolve) => {
  const done = () => {
    clearTimeout(t);
    if (signal) signal.removeEventListener('abort', done);
    resolve();
  };
  const t = setTimeout(done, ms);
  if (signal) signal.addEventListener('abort', done, { once: true });
});

// A page that stops answering (hung renderer) must not hang the run: every evaluate gets a limit.
const EVALUATE_LIMIT_MS = 20000;
function evaluate(page, fn) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`page did not answer within ${EVALUATE_LIMIT_MS / 1000} s`)), EVALUATE_LIMIT_MS);
  });
  return Promise.race([page.evaluate(fn), limit]).finally(() => clearTimeout(timer));
}

/**
 * Plays one client. Never throws: a crash, a launch failure or a timeout comes back as a record
 * with status failed|timeout and the error.
 */
async function playClient(c, opts, progress, signal) {
  const rec = {
    client: c.id, status: 'failed', netns: c.netns || '', transport: opts.mptcp ? 'mptcp' : 'tcp',
    start_offset_s: c.offset, url: c.url, error: null, started: new Date().toISOString(),
  };
  const t0 = Date.now();
  let browser = null;
  let qoe = null;
  const consoleErrors = [];
  try {
    browser = await chromium.launch({
      executablePath: WRAP,
      headless: true,
      timeout: 60000,
      env: Object.assign({}, process.env, {
        MPQOE_NETNS: c.netns || '',
        MPQOE_MPTCP: opts.mptcp ? '1' : '0',
        MPQOE_CHROMIUM: opts.chromium,
      }),
      args: [
        '--autoplay-policy=no-user-gesture-required',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-features=MediaRouter,OptimizationHints',
        '--no-first-run',
      ],
    });
    const page = await browser.newPage();
    let crashed = null;
    page.on('crash', () => { crashed = 'page crashed'; });
    page.on('pageerror', (e) => consoleErrors.push(String(e.message || e)));
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    await page.goto(c.url, { timeout: 30000, waitUntil: 'load' });
    const deadline = t0 + opts.timeoutSeconds * 1000;
    let lastProgress = 0;
    for (;;) {
      if (crashed) throw new Error(crashed);
      if (signal && signal.aborted) throw new Error('run interrupted');
      const st = await evaluate(page, () => (window.__qoe ? { done: window.__qoe.done, s: window.__qoe.status() } : null));
      if (!st) throw new Error('player page did not start (window.__qoe missing)');
      if (st.done) break;
      if (Date.now() > deadline) {
        await evaluate(page, () => window.__qoe.stop('timeout'));
        rec.status = 'timeout';
        rec.error = `no end of playback within ${opts.timeoutSeconds} s`;
        break;
      }
      if (Date.now() - lastProgress >= opts.progressSeconds * 1000) {
        lastProgress = Date.now();
        progress(c, st.s);
      }
      await sleep(250, signal);
    }
    qoe = await evaluate(page, () => window.__qoe.result());
    if (rec.status !== 'timeout') {
      const reason = qoe.meta.endReason;
      if (reason === 'ended') rec.status = 'ok';
      else {
        rec.status = reason === 'timeout' ? 'timeout' : 'failed';
        const errs = qoe.events.filter((e) => e.type === 'error').map((e) => e.message);
        rec.error = `playback ended by ${reason}` + (errs.length ? `: ${errs.join('; ')}` : '');
      }
    }
  } catch (e) {
    rec.status = rec.status === 'timeout' ? 'timeout' : 'failed';
    rec.error = String(e && e.message ? e.message.split('\n')[0] : e);
  } finally {
    if (browser) await browser.close().catch(() => {});
  }
  rec.wall_s = Number(((Date.now() - t0) / 1000).toFixed(2));
  rec.finished = new Date().toISOString();
  if (qoe) {
    Object.assign(rec, metrics.summarize(qoe.events));
    rec.throughput = metrics.throughputOverTime(qoe.events, 1).map((b) => [b.t, Number(b.kbps.toFixed(1))]);
    rec.stall_list = metrics.stalls(qoe.events);
  }
  if (consoleErrors.length) rec.console_errors = consoleErrors.slice(0, 20);
  rec.qoe = qoe;
  return rec;
}

/**
 * Runs every client (staggered) and writes out/client-N.json, out/clients.csv and out/run.json.
 * opts: {clients: [{id, netns, url, offset}], out, mptcp, chromium, timeoutSeconds, progressSeconds,
 * meta, log}
 */
async function runClients(opts, signal) {
  fs.mkdirSync(opts.out, { recursive: true });
  const started = new Date().toISOString();
  const records = new Map();
  const runJson = (partial) => ({
    partial,
    complete: !partial,
    started,
    finished: partial ? null : new Date().toISOString(),
    meta: opts.meta || {},
    clients: opts.clients.map((c) => {
      const r = records.get(c.id);
      return { client: c.id, status: r ? r.status : 'not_run', netns: c.netns || '', file: r ? `client-${c.id}.json` : null };
    }),
  });
  const rows = () => opts.clients.map((c) => records.get(c.id)
    || { client: c.id, status: 'not_run', netns: c.netns || '', transport: opts.mptcp ? 'mptcp' : 'tcp', start_offset_s: c.offset });
  const flush = (partial) => {
    writeAtomic(path.join(opts.out, 'clients.csv'), toCsv(rows()));
    writeJson(path.join(opts.out, 'run.json'), runJson(partial));
  };
  flush(true);
  const log = opts.log || ((s) => process.stderr.write(s + '\n'));
  const progress = (c, s) => log(`[client ${c.id}] t=${s.t.toFixed(0)}s pos=${s.position.toFixed(1)}s `
    + `level=${s.level ?? '-'} buffer=${Number.isFinite(s.buffer) ? s.buffer.toFixed(1) : '-'}s ${s.state}`);
  const tasks = opts.clients.map(async (c) => {
    await sleep(c.offset * 1000, signal);
    if (signal && signal.aborted) return;
    log(`[client ${c.id}] start${c.netns ? ' in ' + c.netns : ''} (${opts.mptcp ? 'MPTCP' : 'TCP'})`);
    const rec = await playClient(c, opts, progress, signal);
    records.set(c.id, rec);
    writeJson(path.join(opts.out, `client-${c.id}.json`), rec);
    log(`[client ${c.id}] ${rec.status}` + (rec.error ? `: ${rec.error}` : '')
      + (rec.avg_bitrate_kbps != null ? ` avg ${rec.avg_bitrate_kbps} kbit/s, ${rec.switches_count} switches, outage ${rec.outage_s} s` : ''));
    flush(true);
  });
  await Promise.all(tasks);
  const partial = !!(signal && signal.aborted);
  flush(partial);
  return { records: rows(), partial };
}

module.exports = { runClients, playClient, toCsv, writeAtomic, writeJson, CSV_COLUMNS };

'use strict';
// dashjs-harness/run: plays N dash.js clients against an MPTCP HTTP server and writes the results.
// `run --help` lists the flags; docs/dashjs-harness.md explains them.

const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { parseArgs } = require('util');
const { runClients } = require('./clients');

const PLAYERS = require('../player/players.json');

const HOME = path.dirname(__dirname);
const PY = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

const USAGE = `usage: run --clients N [options]

Plays N dash.js players (one headless Chromium each) against the harness's MPTCP HTTP server,
which it starts unless --server is given, and writes OUT/client-<i>.json, OUT/clients.csv and
OUT/run.json (partial: true until every client finished or failed).

content (generated with ffmpeg, cached under build/content):
  --set ga|qomra          bitrate ladder (default ga)
  --duration S            content seconds (default 540, the GA paper's 9 min)
  --segment S             segment seconds (default: ga 4, qomra 6)
  --resolution small|nominal   encoded size (default small, 320x180)
server:
  --server URL[,URL...]   use a running harness server (base URL, e.g. http://10.0.0.1:8000);
                          the content must exist under its /content mount (see --mpd); with
                          several, client i uses the (i mod k)-th (e.g. one forwarder each)
  --mpd PATH              manifest path on the server (default /content/<key>/manifest.mpd)
  --server-netns NS       start the server inside network namespace NS (a name for ip netns
                          exec, or pid:N: the namespace of process N, e.g. a Mininet host)
  --bind ADDR             server listen address (default 127.0.0.1; 0.0.0.0 with --server-netns)
  --port N                server port (default 0: any free port)
  --server-addr ADDR      address the clients use to reach the started server (default: --bind,
                          or 127.0.0.1 when that is 0.0.0.0)
  --server-tcp            plain TCP listener (for a kernel without MPTCP)
clients:
  --clients N             number of players (required, 1..64)
  --stagger S             seconds between client starts (default 2)
  --netns NS[,NS...]      run client i in the (i mod k)-th namespace; pid:N means the namespace
                          of process N (a Mininet host's shell)
  --tcp                   plain TCP clients (default: MPTCP via mptcpize)
  --player NAME           player profile (player/players.json; default ${PLAYERS.default}):
${Object.entries(PLAYERS.players).map(([n, p]) => `                            ${n}: ${p.about}`).join('\n')}
  --settings JSON         dash.js settings object for player.updateSettings() (dash.js 5 profiles)
  --timeout S             per-client limit (default: 2 x duration + 60)
  --chromium PATH         browser binary (default /usr/lib/chromium/chromium)
  --out DIR               results directory (default results/<UTC timestamp>)
  --progress S            seconds between progress lines (default 10)
  -h, --help
`;

class UsageError extends Error {}

const OPTIONS = {
  clients: { type: 'string' },
  set: { type: 'string', default: 'ga' },
  duration: { type: 'string' },
  segment: { type: 'string' },
  resolution: { type: 'string', default: 'small' },
  server: { type: 'string' },
  mpd: { type: 'string' },
  'server-netns': { type: 'string' },
  bind: { type: 'string' },
  port: { type: 'string', default: '0' },
  'server-addr': { type: 'string' },
  'server-tcp': { type: 'boolean', default: false },
  stagger: { type: 'string', default: '2' },
  netns: { type: 'string' },
  tcp: { type: 'boolean', default: false },
  player: { type: 'string', default: PLAYERS.default },
  settings: { type: 'string' },
  timeout: { type: 'string' },
  chromium: { type: 'string', default: '/usr/lib/chromium/chromium' },
  out: { type: 'string' },
  progress: { type: 'string', default: '10' },
  help: { type: 'boolean', short: 'h', default: false },
};

function num(v, name, { min = -Infinity, max = Infinity, int = false } = {}) {
  const x = Number(v);
  if (v === undefined || v === '' || !Number.isFinite(x) || (int && !Number.isInteger(x)) || x < min || x > max) {
    throw new UsageError(`--${name} wants ${int ? 'an integer' : 'a number'} in ${min}..${max}, got ${JSON.stringify(v)}`);
  }
  return x;
}

// A namespace is a name from `ip netns list` or pid:N, the network namespace of process N.
function checkNetns(ns, flag) {
  if (/^pid:\d+$/.test(ns)) {
    if (!fs.existsSync(`/proc/${ns.slice(4)}/ns/net`)) throw new UsageError(`${flag} ${ns}: no such process`);
  } else if (!/^[A-Za-z0-9_.-]+$/.test(ns)) {
    throw new UsageError(`${flag}: bad namespace name ${JSON.stringify(ns)}`);
  } else if (!fs.existsSync(`/var/run/netns/${ns}`)) {
    throw new UsageError(`${flag} ${ns}: no such network namespace (ip netns list)`);
  }
}

// argv prefix that runs a command inside a namespace given as checkNetns accepts it
function inNetns(ns) {
  return ns.startsWith('pid:') ? ['nsenter', `--net=/proc/${ns.slice(4)}/ns/net`, '--'] : ['ip', 'netns', 'exec', ns];
}

function parse(argv) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (e) {
    throw new UsageError(e.message.replace(/\s*\n\s*/g, ' '));
  }
  if (values.help) return { help: true };
  if (values.clients === undefined) throw new UsageError('--clients N is required');
  const o = {
    clients: num(values.clients, 'clients', { min: 1, max: 64, int: true }),
    set: values.set,
    resolution: values.resolution,
    stagger: num(values.stagger, 'stagger', { min: 0, max: 3600 }),
    progress: num(values.progress, 'progress', { min: 1, max: 3600 }),
    port: num(values.port, 'port', { min: 0, max: 65535, int: true }),
    mptcp: !values.tcp,
    serverTcp: values['server-tcp'],
    server: values.server,
    mpd: values.mpd,
    serverNetns: values['server-netns'],
    chromium: values.chromium,
    player: values.player,
  };
  if (!Object.hasOwn(PLAYERS.players, o.player)) {
    throw new UsageError(`--player must be one of ${Object.keys(PLAYERS.players).join(', ')}, got ${JSON.stringify(o.player)}`);
  }
  if (!['ga', 'qomra'].includes(o.set)) throw new UsageError(`--set must be ga or qomra, got ${JSON.stringify(o.set)}`);
  if (!['small', 'nominal'].includes(o.resolution)) throw new UsageError('--resolution must be small or nominal');
  o.duration = values.duration === undefined ? 540 : num(values.duration, 'duration', { min: 1, max: 36000 });
  o.segment = values.segment === undefined ? (o.set === 'ga' ? 4 : 6) : num(values.segment, 'segment', { min: 0.04, max: 60 });
  if (o.segment > o.duration) throw new UsageError('--segment is longer than --duration');
  o.timeout = values.timeout === undefined ? 2 * o.duration + 60 : num(values.timeout, 'timeout', { min: 5, max: 86400 });
  if (values.settings !== undefined) {
    try {
      o.settings = JSON.parse(values.settings);
    } catch (e) {
      throw new UsageError(`--settings is not JSON: ${e.message}`);
    }
    if (typeof o.settings !== 'object' || o.settings === null || Array.isArray(o.settings)) {
      throw new UsageError('--settings must be a JSON object');
    }
    if (PLAYERS.players[o.player].api !== 5) {
      throw new UsageError(`--settings applies to dash.js 5 profiles; --player ${o.player} is dash.js ${PLAYERS.players[o.player].version}`);
    }
  }
  o.netns = values.netns ? values.netns.split(',').map((s) => s.trim()) : [];
  for (const ns of o.netns) checkNetns(ns, '--netns');
  if (o.serverNetns !== undefined) {
    if (o.server) throw new UsageError('--server-netns and --server exclude each other');
    checkNetns(o.serverNetns, '--server-netns');
  }
  if (o.server !== undefined) {
    o.servers = o.server.split(',').map((s) => {
      let u;
      try {
        u = new URL(s.trim());
      } catch (e) {
        throw new UsageError(`--server is not a URL: ${JSON.stringify(s)}`);
      }
      if (u.protocol !== 'http:') throw new UsageError('--server must be an http:// URL');
      return u.origin;
    });
    if (!o.mpd) throw new UsageError('--server needs --mpd PATH (the manifest path on that server)');
    o.server = o.servers[0];
  }
  o.bind = values.bind || (o.serverNetns ? '0.0.0.0' : '127.0.0.1');
  o.serverAddr = values['server-addr'] || (o.bind === '0.0.0.0' ? '127.0.0.1' : o.bind);
  if (!fs.existsSync(o.chromium)) {
    throw new UsageError(`--chromium ${o.chromium} does not exist (apt-get install chromium)`);
  }
  o.out = values.out || path.join(HOME, 'results', new Date().toISOString().replace(/[:.]/g, '-'));
  return o;
}

function generateContent(o) {
  const args = [path.join(HOME, 'content', 'gen_content.py'), '--set', o.set, '--duration', String(o.duration),
    '--segment', String(o.segment), '--resolution', o.resolution];
  const r = spawnSync(PY, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`content generation failed (exit ${r.status})`);
  return r.stdout.trim();
}

function startServer(o, contentRoot, logFile) {
  const args = [path.join(HOME, 'server', 'mptcp_server.py'),
    '--mount', `/content=${contentRoot}`,
    '--mount', `/player=${path.join(HOME, 'player')}`,
    '--players',
    '--bind', o.bind, '--port', String(o.port), '--log', logFile];
  if (o.serverTcp) args.push('--tcp');
  const argvFull = o.serverNetns ? [...inNetns(o.serverNetns), PY, ...args] : [PY, ...args];
  const child = spawn(argvFull[0], argvFull.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => { child.kill('SIGTERM'); reject(new Error('server did not start within 10 s')); }, 10000);
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^listening (\S+) (\d+) (\w+)$/m);
      if (m) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[2]), proto: m[3] });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${err.trim()}`));
    });
  });
}

async function main(argv) {
  let o;
  try {
    o = parse(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`run: ${e.message} (run --help)\n`);
      return 2;
    }
    throw e;
  }
  if (o.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const build = path.join(HOME, PLAYERS.players[o.player].build);
  if (!fs.existsSync(build)) {
    process.stderr.write(`run: dash.js of player ${o.player} is not installed (${path.relative(HOME, build)}): `
      + 'run `make -C dashjs-harness deps` (npm ci)\n');
    return 2;
  }
  if (o.mptcp && spawnSync('sh', ['-c', 'command -v mptcpize']).status !== 0) {
    process.stderr.write('run: mptcpize not found (apt-get install mptcpd), or pass --tcp\n');
    return 2;
  }
  const ac = new AbortController();
  const onSignal = (s) => { process.stderr.write(`run: ${s}, stopping the clients (results marked partial)\n`); ac.abort(); };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  fs.mkdirSync(o.out, { recursive: true });
  let server = null;
  try {
    let base = o.server;
    let mpd = o.mpd;
    let contentKey = null;
    if (!o.server) {
      const dir = generateContent(o);
      contentKey = path.basename(dir);
      mpd = mpd || `/content/${contentKey}/manifest.mpd`;
      server = await startServer(o, path.dirname(dir), path.join(o.out, 'server.log'));
      base = `http://${o.serverAddr.includes(':') ? `[${o.serverAddr}]` : o.serverAddr}:${server.port}`;
      process.stderr.write(`run: server ${server.proto} on ${o.bind}:${server.port}`
        + `${o.serverNetns ? ' in ' + o.serverNetns : ''}, content ${contentKey}\n`);
    }
    const query = new URLSearchParams({ mpd, player: o.player, maxSeconds: String(o.timeout), label: '' });
    if (o.settings) query.set('settings', JSON.stringify(o.settings));
    const clients = [];
    for (let i = 0; i < o.clients; i++) {
      query.set('label', `client-${i}`);
      clients.push({
        id: i,
        netns: o.netns.length ? o.netns[i % o.netns.length] : '',
        offset: i * o.stagger,
        url: `${o.servers ? o.servers[i % o.servers.length] : base}/player/index.html?${query}`,
      });
    }
    const res = await runClients({
      clients, out: o.out, mptcp: o.mptcp, chromium: o.chromium,
      timeoutSeconds: o.timeout + 30, progressSeconds: o.progress,
      meta: {
        argv, base: o.servers || base, mpd, content: contentKey, set: o.set, duration: o.duration, segment: o.segment,
        transport: o.mptcp ? 'mptcp' : 'tcp', server: server ? server.proto : 'external', stagger: o.stagger,
        player: o.player, dashjs: PLAYERS.players[o.player].version,
      },
    }, ac.signal);
    const failed = res.records.filter((r) => r.status !== 'ok');
    process.stderr.write(`run: ${res.records.length - failed.length} ok, ${failed.length} failed`
      + `${res.partial ? ' (partial run)' : ''}; results in ${o.out}\n`);
    return res.partial ? 130 : failed.length ? 1 : 0;
  } catch (e) {
    process.stderr.write(`run: ${e.message}\n`);
    return 1;
  } finally {
    if (server) {
      server.child.removeAllListeners('exit');
      server.child.kill('SIGTERM');
    }
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}

module.exports = { parse, main, UsageError, PLAYERS };

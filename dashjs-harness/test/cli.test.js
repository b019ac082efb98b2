'use strict';
// Bad flags: one clear line on stderr, exit code 2, nothing written (no browser is started).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { parse } = require('../runner/cli');

const CLI = path.join(__dirname, '..', 'runner', 'cli.js');
const run = (args) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 20000 });

const BAD = [
  [[], /--clients N is required/],
  [['--clients', '0'], /--clients wants an integer in 1\.\.64/],
  [['--clients', 'two'], /--clients/],
  [['--clients', '1.5'], /--clients/],
  [['--clients', '1', '--bogus'], /Unknown option '--bogus'/],
  [['--clients', '1', '--set', 'youtube'], /--set must be ga or qomra/],
  [['--clients', '1', '--resolution', '4k'], /--resolution/],
  [['--clients', '1', '--stagger', '-1'], /--stagger/],
  [['--clients', '1', '--duration', '10', '--segment', '20'], /--segment is longer than --duration/],
  [['--clients', '1', '--settings', '{'], /--settings is not JSON/],
  [['--clients', '1', '--settings', '[1]'], /--settings must be a JSON object/],
  [['--clients', '1', '--netns', 'mqdash-no-such-ns'], /no such network namespace/],
  [['--clients', '1', '--netns', 'pid:999999999'], /no such process/],
  [['--clients', '1', '--netns', '../etc'], /bad namespace name/],
  [['--clients', '1', '--server', 'ftp://x'], /--server must be an http:\/\/ URL/],
  [['--clients', '1', '--server', 'not a url'], /--server is not a URL/],
  [['--clients', '1', '--server', 'http://10.0.0.1:8000'], /--server needs --mpd/],
  [['--clients', '1', '--server', 'http://a:1,ftp://b', '--mpd', '/m'], /--server must be an http:\/\/ URL/],
  [['--clients', '1', '--port', '70000'], /--port/],
  [['--clients', '1', '--chromium', '/nonexistent/chromium'], /does not exist/],
  [['--clients', '1', 'extra'], /positional/i],
  [['--clients', '1', '--player', 'legacy'], /--player must be one of modern, paper, got "legacy"/],
  [['--clients', '1', '--player', ''], /--player must be one of/],
  [['--clients', '1', '--player', 'constructor'], /--player must be one of/],
  [['--clients', '1', '--player', 'paper', '--settings', '{}'], /--settings applies to dash\.js 5 profiles; --player paper is dash\.js 2\.5\.0/],
];

for (const [args, re] of BAD) {
  test(`run ${args.join(' ') || '(no flags)'} -> exit 2`, () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mqdash-cli-'));
    const target = path.join(out, 'results');
    const r = run([...args, '--out', target]);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, re);
    assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
    assert.equal(r.stdout, '');
    assert.ok(!fs.existsSync(target), 'nothing written');
    fs.rmSync(out, { recursive: true });
  });
}

test('--help prints the usage and exits 0', () => {
  const r = run(['--help']);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /usage: run --clients N/);
});

test('defaults: GA set, 9 minutes, 4 s segments, MPTCP, timeout 2 x duration + 60', () => {
  const o = parse(['--clients', '3']);
  assert.equal(o.set, 'ga');
  assert.equal(o.duration, 540);
  assert.equal(o.segment, 4);
  assert.equal(o.mptcp, true);
  assert.equal(o.timeout, 1140);
  assert.equal(o.bind, '127.0.0.1');
  assert.equal(parse(['--clients', '1', '--set', 'qomra']).segment, 6);
  assert.equal(parse(['--clients', '1', '--tcp']).mptcp, false);
});

test('--server with several URLs: client i uses the (i mod k)-th', () => {
  const o = parse(['--clients', '3', '--server', 'http://127.0.0.1:7100, http://127.0.0.1:7101/x', '--mpd', '/m']);
  assert.deepEqual(o.servers, ['http://127.0.0.1:7100', 'http://127.0.0.1:7101']);
  assert.equal(o.server, 'http://127.0.0.1:7100');
});

test('--player: modern by default, paper on request', () => {
  assert.equal(parse(['--clients', '1']).player, 'modern');
  assert.equal(parse(['--clients', '1', '--player', 'modern']).player, 'modern');
  assert.equal(parse(['--clients', '1', '--player', 'paper']).player, 'paper');
  assert.deepEqual(parse(['--clients', '1', '--player', 'modern', '--settings', '{"a":1}']).settings, { a: 1 });
});

test('--help lists every player profile', () => {
  const r = run(['--help']);
  for (const name of ['modern', 'paper']) assert.match(r.stdout, new RegExp(`^ +${name}: dash\\.js`, 'm'));
});

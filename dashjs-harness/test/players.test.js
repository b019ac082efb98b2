'use strict';
// player/players.json, the one definition of the player profiles that the runner, the page, the
// server (--players) and the video experiments read: well formed, and every build installed.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');

const HOME = path.join(__dirname, '..');
const FILE = JSON.parse(fs.readFileSync(path.join(HOME, 'player', 'players.json'), 'utf8'));
const pkg = JSON.parse(fs.readFileSync(path.join(HOME, 'package.json'), 'utf8'));

test('the default profile is modern, and it exists', () => {
  assert.equal(FILE.default, 'modern');
  assert.ok(FILE.players.modern);
});

for (const [name, p] of Object.entries(FILE.players)) {
  test(`profile ${name}: a pinned npm dependency whose installed version and build match`, () => {
    assert.match(name, /^[a-z0-9-]+$/, 'a name that is a URL path segment');
    assert.ok([2, 5].includes(p.api), `api ${p.api} has an adapter in player.js`);
    assert.ok(['create', 'streamInitialized'].includes(p.samplesFrom));
    const spec = pkg.dependencies[p.package];
    assert.ok(spec === p.version || spec === `npm:dashjs@${p.version}`, `package.json pins ${p.package} to ${p.version}`);
    const installed = JSON.parse(fs.readFileSync(path.join(HOME, 'node_modules', p.package, 'package.json'), 'utf8'));
    assert.equal(installed.name, 'dashjs');
    assert.equal(installed.version, p.version);
    assert.ok(p.build.startsWith(`node_modules/${p.package}/`), 'the build is inside its own package');
    assert.ok(fs.statSync(path.join(HOME, p.build, p.script)).isFile(), `${p.build}/${p.script} exists`);
    assert.equal(typeof p.calls, 'object');
    if (p.api === 5) assert.deepEqual(p.calls, {}, 'dash.js 5 settings come from --settings only');
  });
}

test('paper: the reference player\'s settings, called on a dash.js 2.5.0 player', () => {
  const p = FILE.players.paper;
  assert.equal(p.version, '2.5.0');
  assert.equal(p.samplesFrom, 'streamInitialized');
  assert.deepEqual(p.calls, { setFastSwitchEnabled: true, enableBufferOccupancyABR: false, setScheduleWhilePaused: true });
  // every call is a method of 2.5.0's MediaPlayer (its source ships in the npm package)
  const src = fs.readFileSync(path.join(HOME, 'node_modules', p.package, 'src', 'streaming', 'MediaPlayer.js'), 'utf8');
  for (const call of Object.keys(p.calls)) assert.match(src, new RegExp(`function ${call}\\(`), call);
});

'use strict';
// Unit tests of player/end.js: when the page ends a session that stopped at the end of the media
// without the element's 'ended' event.
const test = require('node:test');
const assert = require('node:assert/strict');
const { stoppedAtEnd, END_SLACK_S, GRACE_S } = require('../player/end');

test('paused at the last frame for the grace period: the end', () => {
  assert.equal(stoppedAtEnd(540, 540, true, GRACE_S), true);
  assert.equal(stoppedAtEnd(540 - END_SLACK_S, 540, true, 430), true);
});

test('a normal end in progress: paused at the end but not yet for the grace period', () => {
  assert.equal(stoppedAtEnd(540, 540, true, GRACE_S - 0.01), false);
  assert.equal(stoppedAtEnd(540, 540, true, null), false);
});

test('paused before the end, or playing at the end: not the end', () => {
  assert.equal(stoppedAtEnd(539.8, 540, true, 100), false);
  assert.equal(stoppedAtEnd(540, 540, false, 100), false);
});

test('no duration known (before the manifest, or a live stream): never the end', () => {
  assert.equal(stoppedAtEnd(0, NaN, true, 100), false);
  assert.equal(stoppedAtEnd(10, Infinity, true, 100), false);
  assert.equal(stoppedAtEnd(0, 0, true, 100), false);
});

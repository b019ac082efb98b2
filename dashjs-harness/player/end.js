// Has playback stopped at the end of the presentation without the video element's 'ended'?
// Chromium normally fires 'pause' and then 'ended' there; in a MediaSource session it can stop at
// the last frame with only 'pause' (seen with dash.js 5.2.1 in a 540 s session: 'pause' at
// position 540 of 540, no 'ended'), and the player then sat idle until its watchdog reported a
// timeout. player.js asks this every sample; the unit tests (test/end.test.js) load it too.
(function (root) {
  'use strict';
  // Chromium stops at the last frame's start or end: a frame lasts 0.04 s at 25 fps
  const END_SLACK_S = 0.1;
  // a normal end's 'ended' follows its 'pause' at once; wait this long before deciding it will not
  const GRACE_S = 2;

  // position, duration (s of media, the element's), paused (the element's), pausedFor (s since
  // the last 'pause' event, null when none since the last 'play')
  function stoppedAtEnd(position, duration, paused, pausedFor) {
    return (
      paused === true &&
      Number.isFinite(position) &&
      Number.isFinite(duration) &&
      duration > 0 &&
      position >= duration - END_SLACK_S &&
      Number.isFinite(pausedFor) &&
      pausedFor >= GRACE_S
    );
  }

  const api = { stoppedAtEnd, END_SLACK_S, GRACE_S };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  else root.mpqoeEnd = api;
})(this);

"""The probe's player: a VLC-like playout model fed with frame arrivals, online or offline.

One implementation serves both uses: the client feeds a Player while it reads (it needs the
play position to decide whether to read, see vprobe_client.py) and takes the QoE figures from
it at the end; playout() replays recorded arrival times through the same class.

The model, for frames i = 0..n-1 at `fps` frames/s, where F_i is when the first byte of frame
i was read and C_i when its last byte was (seconds, any origin; the client's origin is
"connection established"):

- Startup: playback starts at P, when the first B = ceil(startup_buffer * fps) frames are
  complete (if one of them never arrives: when the stream ended). startup_buffer defaults to
  1.0 s, VLC's default network caching (--network-caching=1000).
- Frame i is due at D_i = P + i/fps + (stall time so far).
- Shown: C_i <= D_i.
- Picture discard: C_i > D_i, but at D_i some of frame i's bytes have arrived (F_i <= D_i) -
  or, in a hand-made sequence out of stream order, some bytes of a later frame. The player's
  buffer is not empty, so the demuxer has data and VLC's clock runs on; the decoder and the
  video output drop the picture that is not complete in time. Frame i+1 is due at D_i + 1/fps.
- Buffer underflow: at D_i no byte of frame i (nor of any later frame) has arrived: the buffer
  ran empty. Playback pauses - the clock stops and the picture freezes - until frames
  i..i+K-1, K = ceil(rebuffer * fps) (rebuffer default 0.5 s), are complete, or when the
  stream ended if one of them never arrives. That is one underflow event of duration
  (resume - D_i); the stall is added to every later deadline, and frame i is shown at the
  resume, not discarded (unless it never arrived). This is VLC re-buffering after its
  buffer ran dry: the video freezes, then resumes.
- Frames never received: a frame due with an empty buffer after the stream ended is a discard
  (the player knows no more data comes); one that never arrived while the stream went on is
  first an underflow that lasts until the stream ended, then a discard.

So one late frame is a discard when its data trickled in too slowly and an underflow when
nothing came at all; a gap in the data gives one underflow (however long), not a discard per
frame of the gap.
"""

import math

EPS = 1e-9


class Player:
    """A VLC-like player for `frames` frames (the model is in the module's docstring).

    Feed it what arrived - first_byte(i, t), complete(i, t), end(t) - and call advance(t) to
    play out every deadline up to t. The one rule: advance(t) only once every arrival up to t
    has been fed (events may be fed in any order before that; only their times count), so
    that each deadline is judged on what had arrived by then. finish() plays out the rest
    once end() was called; result() gives the figures.
    """

    def __init__(self, frames, fps, startup_buffer=1.0, rebuffer=0.5):
        if frames < 0 or fps <= 0 or startup_buffer < 0 or rebuffer < 0:
            raise ValueError("player: fps must be > 0, frames and buffer times >= 0")
        self.n = frames
        self.fps = fps
        self.startup_frames = min(frames, max(1, math.ceil(startup_buffer * fps - EPS)))
        self.rebuffer_frames = max(1, math.ceil(rebuffer * fps - EPS))
        self.first = [None] * frames  # F_i
        self.done = [None] * frames  # C_i
        self.received = 0
        self.ended = None  # when the stream ended, once it has
        self.last_started = -1  # highest index with a first byte
        self.start = None  # P, once playback started
        self.next = 0  # the next frame to fall due
        self.stall = 0.0  # total underflow time so far
        self.stalled_at = None  # D_i of the frame that started the current underflow
        self.ahead = 0  # complete frames not due yet (index >= next)
        self.displayed = 0
        self.discards = 0
        self.underflows = []  # (start, duration)
        self.last_due = None  # when the last frame played out was due (or shown, if stalled)

    # -- arrivals ----------------------------------------------------------------------------

    def first_byte(self, i, t):
        """The first byte of frame i arrived at t (a repeat keeps the earlier time)."""
        if self.first[i] is None or t < self.first[i]:
            self.first[i] = t
        self.last_started = max(self.last_started, i)

    def complete(self, i, t):
        """The last byte of frame i arrived at t."""
        if self.done[i] is not None:
            raise ValueError(f"player: frame {i} completed twice")
        if self.first[i] is not None and self.first[i] > t + EPS:
            raise ValueError(f"player: frame {i} complete before its first byte")
        self.first_byte(i, t)
        self.done[i] = t
        self.received += 1
        if i >= self.next:
            self.ahead += 1

    def end(self, t):
        """The stream ended at t: no more data comes."""
        self.ended = t

    # -- playback ----------------------------------------------------------------------------

    @property
    def playing(self):
        """Playback started, the clock runs and frames remain to be played."""
        return self.start is not None and self.stalled_at is None and self.next < self.n

    def next_deadline(self):
        """D of the next frame while playing, else None (startup, underflow, played out)."""
        if not self.playing:
            return None
        return self.start + self.next / self.fps + self.stall

    def wants_data(self, limit):
        """Whether a reader that keeps at most `limit` complete frames (>= 1) ahead of
        playback should read: always while playback has not started or is paused."""
        return not self.playing or self.ahead < max(1, limit)

    def _ready(self, lo, hi):
        """When frames lo..hi-1 are all complete, or, if one never is, when the stream ended;
        None while that is not known yet."""
        t = -math.inf
        missing = False
        for c in self.done[lo:hi]:
            if c is None:
                missing = True
            elif c > t:
                t = c
        if not missing:
            return t
        return None if self.ended is None else max(t, self.ended)

    def _has_data(self, i, due):
        """Whether some byte of frame i or a later one had arrived by `due`."""
        for j in range(i, self.last_started + 1):
            f = self.first[j]
            if f is not None and f <= due + EPS:
                return True
        return False

    def _played(self, i, at, shown):
        if self.done[i] is not None:
            self.ahead -= 1
        if shown:
            self.displayed += 1
        else:
            self.discards += 1
        self.next = i + 1
        self.last_due = at

    def advance(self, t):
        """Play out every deadline up to t (every arrival up to t must have been fed)."""
        while self.next < self.n:
            if self.start is None:
                p = self._ready(0, self.startup_frames)
                if p is None or p > t:
                    return
                self.start = p
            i = self.next
            if self.stalled_at is not None:
                r = self._ready(i, min(self.n, i + self.rebuffer_frames))
                if r is None or r > t:
                    return
                r = max(r, self.stalled_at)
                self.underflows.append((self.stalled_at, r - self.stalled_at))
                self.stall += r - self.stalled_at
                self.stalled_at = None
                self._played(i, r, self.done[i] is not None)
                continue
            due = self.start + i / self.fps + self.stall
            if due > t:
                return
            c = self.done[i]
            if c is not None and c <= due + EPS:
                self._played(i, due, True)
            elif self._has_data(i, due):
                self._played(i, due, False)  # late picture, the clock runs on
            elif self.ended is not None and self.ended <= due + EPS:
                self._played(i, due, False)  # never comes: nothing to wait for
            else:
                self.stalled_at = due  # the buffer ran empty

    def finish(self):
        """Play out the rest (the stream must have ended) and return result()."""
        if self.ended is None:
            raise ValueError("player: finish() before end()")
        self.advance(math.inf)
        return self.result()

    def result(self):
        """startup_s (P; None if no frame arrived), displayed, picture_discards,
        underflow_starts_s, underflow_durations_s (lists), played_until_s (when the last
        frame played out was due, or shown after an underflow)."""
        started = self.received > 0
        return {
            "startup_s": self.start if started else None,
            "displayed": self.displayed,
            "picture_discards": self.discards,
            "underflow_starts_s": [s for s, _ in self.underflows],
            "underflow_durations_s": [d for _, d in self.underflows],
            "played_until_s": self.last_due if started else None,
        }


def playout(firsts, completions, fps, startup_buffer=1.0, rebuffer=0.5, end=None):
    """Replay recorded arrivals through a Player, in time order as the client feeds it.

    firsts[i] / completions[i]: when the first / last byte of frame i arrived (None: never;
    a frame with a completion but no first byte arrived in one piece). `end`: when the stream
    ended (default, and at the least: the last arrival). Returns Player.result().
    """
    if len(firsts) != len(completions):
        raise ValueError("playout: firsts and completions differ in length")
    player = Player(len(completions), fps, startup_buffer, rebuffer)
    events = []
    for i, (f, c) in enumerate(zip(firsts, completions, strict=True)):
        if f is not None and c is not None and f > c:
            raise ValueError(f"playout: frame {i} complete before its first byte")
        if f is not None:
            events.append((f, 0, i))
        if c is not None:
            events.append((c, 1, i))
    events.sort()
    for k, (t, kind, i) in enumerate(events):
        if kind:
            player.complete(i, t)
        else:
            player.first_byte(i, t)
        if k + 1 == len(events) or events[k + 1][0] > t:
            player.advance(t)
    last = events[-1][0] if events else 0.0
    player.end(last if end is None else max(end, last))
    return player.finish()

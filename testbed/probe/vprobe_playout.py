"""The probe's player: frame completion times replayed through a VLC-like playout model."""

import math

EPS = 1e-9


def playout(completions, fps, startup_buffer=1.0, underflow_after=0.1, rebuffer=0.5, end=None):
    """Replay frame completion times through a VLC-like player; return the QoE figures.

    completions[i] is the time (s, any origin; the client uses "connection established" = 0)
    at which frame i was complete, or None if it never arrived. `end` is when the stream ended
    (default: the last completion). The player:

    - starts playback at P, when the first B = ceil(startup_buffer * fps) frames are complete
      (if one of them never arrives: when the stream ended). startup_buffer defaults to 1.0 s,
      VLC's default network caching (--network-caching=1000);
    - shows frame i at its due time D_i = P + i/fps + (stall time so far) if it is complete by
      then (C_i <= D_i);
    - otherwise starves. Frames falling due while the player has been starving for less than
      `underflow_after` (default 0.1 s, our choice: three frames at 30 fps) are picture discards
      (late or incomplete pictures the decoder drops; the clock keeps running). The frame due
      when starvation reaches `underflow_after` starts one buffer underflow instead: the clock
      stops and that frame is not discarded; playback resumes when the next
      ceil(rebuffer * fps) frames (default 0.5 s, our choice) are complete, or when the stream
      ended if some of them never arrive; the freeze's duration (resume - D_i) is recorded;
    - discards frames never received: a missing frame due after the stream ended is a discard
      without starvation (the player knows no more data comes); before that, it is
      indistinguishable from a late one.

    Returns a dict: startup_s (P, None if nothing arrived), displayed, picture_discards,
    underflow_durations_s (list), played_until_s (when the last frame was due).
    """
    if fps <= 0 or startup_buffer < 0 or underflow_after < 0 or rebuffer < 0:
        raise ValueError("playout: fps must be > 0 and the buffer times >= 0")
    n = len(completions)
    received = [c for c in completions if c is not None]
    if not received:
        return {
            "startup_s": None,
            "displayed": 0,
            "picture_discards": n,
            "underflow_durations_s": [],
            "played_until_s": None,
        }
    if end is None:
        end = max(received)
    end = max(end, max(received))

    def ready(first, last):
        """When frames first..last-1 are all complete (or the stream ended without them)."""
        window = completions[first:last]
        done = [c for c in window if c is not None]
        t = max(done) if done else -math.inf
        return max(t, end) if len(done) < len(window) else t

    start = ready(0, min(n, max(1, math.ceil(startup_buffer * fps - EPS))))
    k = max(1, math.ceil(rebuffer * fps - EPS))
    stall = 0.0
    starving_since = None
    displayed = discards = 0
    underflows = []
    due = start
    for i, c in enumerate(completions):
        due = start + i / fps + stall
        if c is not None and c <= due + EPS:
            displayed += 1
            starving_since = None
            continue
        if c is None and due >= end - EPS:
            discards += 1
            continue
        if starving_since is None:
            starving_since = due
        if due - starving_since < underflow_after - EPS:
            discards += 1
            continue
        resume = max(due, ready(i, min(n, i + k)))
        underflows.append(resume - due)
        stall += resume - due
        due = resume
        starving_since = None
        if c is None:
            discards += 1
        else:
            displayed += 1
    return {
        "startup_s": start,
        "displayed": displayed,
        "picture_discards": discards,
        "underflow_durations_s": underflows,
        "played_until_s": due,
    }

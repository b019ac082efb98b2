"""The GA paper's authors' QoE metric, from a player's 1 s samples.

The authors' framework measures QoE with a small Java program, Exelizer
(`Exelizer/src/bikas/main.java` in their 1002_TNSM repository), over the lines their dash.js
2.5.0 reference player logs every second (`samples/dash-if-reference-player/app/main.js`,
`updateMetrics`, every `updateMetricsInterval` = 1000 ms): the video buffer level (s), the ABR's
quality index (0 = lowest) and the current representation's bitrate (kbit/s, an integer).
Over one client's samples, in order, main.java computes:

- switches: the sum of |quality index change| between consecutive samples, starting from the
  first sample's index, over ALL samples;
- over the first 596 samples only (its constant; 596 s is the length of its video, Big Buck
  Bunny, BigBuckBunny_2s_simple):
  - bitrate: the integer sum of the sampled bitrates, divided by 596 (integer division);
  - underruns: a state machine over the buffer. A sample with 0 < buffer < 1 either starts an
    episode (count + 1, duration unchanged) or continues an open one (duration + 1); a sample
    outside (0, 1), exactly 0 included, ends an open episode and adds 1 to the duration. An
    episode still open after the last sample of the window keeps its count and the duration
    it had. So an episode of n samples in (0, 1) lasts n "seconds" when it ends and n - 1 when
    the window ends it, and a stall during which the buffer sits at exactly 0 counts only the
    samples in (0, 1) at its edges: a drop straight from >= 1 to 0 counts nothing.

This module computes the same four numbers, with two departures, both because our videos are
shorter than the framework's (540 s, the paper's 9 minutes, or less):
- the window is the first WINDOW samples, or all of them when there are fewer;
- the bitrate is the mean over the window (a float): main.java's sum / 596 would understate
  every run shorter than 596 samples: 540 samples at a constant 2600 kbit/s give 2355.
Samples before the first one whose quality and bitrate are both known are skipped (the
framework's log has none such: main.java parses every line's bitrate as an integer, and its
log's first line has both; our player samples from its start). A buffer that is not known
(None) counts as 0, as dash.js 2.5.0's DashMetrics.getCurrentBufferLevel reports 0 when it has
no buffer level. The duration is in samples, i.e. seconds at the players' 1 s sampling, as in
main.java.
"""

import math
from dataclasses import dataclass

WINDOW = 596  # main.java's constant: samples of its 596 s video


@dataclass(frozen=True)
class FrameworkQoE:
    bitrate_kbps: float  # mean sampled bitrate over the window
    switches: int  # sum of |quality change| over every sample
    underruns: int  # episodes of 0 < buffer < 1 in the window
    underrun_s: int  # their duration, main.java's way (samples, 1 s each)
    window: int  # samples in the window


def _number(value, what, t, integer=False):
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"sample at t={t}: {what} {value!r} is not a finite number")
    if value < 0:
        raise ValueError(f"sample at t={t}: {what} {value!r} is negative")
    if integer:
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(f"sample at t={t}: {what} {value!r} is not an integer")
        return int(value)
    return value


def _checked(samples):
    """The samples as (t, buffer, quality, bitrate) from the first with quality and bitrate
    known on; ValueError on a malformed sample anywhere."""
    out, last_t = [], None
    for s in samples:
        if not isinstance(s, tuple | list) or len(s) != 4:
            raise ValueError(f"sample {s!r}: want (t, buffer, quality, bitrate_kbps)")
        t, buffer, quality, bitrate = s
        if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t):
            raise ValueError(f"sample {s!r}: time {t!r} is not a finite number")
        if last_t is not None and t < last_t:
            raise ValueError(f"sample at t={t}: earlier than the one before (t={last_t})")
        last_t = t
        if not out and (quality is None or bitrate is None):
            continue  # before the player knew its representation
        if quality is None or bitrate is None:
            which = "quality" if quality is None else "bitrate"
            raise ValueError(f"sample at t={t}: {which} unknown after the first known sample")
        buffer = 0.0 if buffer is None else _number(buffer, "buffer", t)
        quality = _number(quality, "quality", t, integer=True)
        bitrate = _number(bitrate, "bitrate", t, integer=True)
        out.append((t, buffer, quality, bitrate))
    return out


def switches(qualities):
    """Sum of |quality change| between consecutive samples."""
    return sum(abs(b - a) for a, b in zip(qualities, qualities[1:], strict=False))


def underruns(buffers):
    """(count, duration) of main.java's underrun episodes over the buffer levels (s)."""
    count = duration = 0
    inside = False
    for b in buffers:
        if 0 < b < 1:
            if inside:
                duration += 1
            else:
                inside, count = True, count + 1
        elif inside:
            inside, duration = False, duration + 1
    return count, duration


def framework_qoe(samples, window=WINDOW):
    """FrameworkQoE of one client's time-ordered samples (t, buffer s, quality index, bitrate
    kbit/s), None when no sample has both quality and bitrate known; ValueError naming the
    sample when one is malformed (a field missing, not a number, negative, a quality or bitrate
    not an integer, unknown after the first known sample, or time going back)."""
    known = _checked(samples)
    if not known:
        return None
    head = known[:window]
    count, duration = underruns([b for _t, b, _q, _r in head])
    return FrameworkQoE(
        bitrate_kbps=sum(r for *_x, r in head) / len(head),
        switches=switches([q for _t, _b, q, _r in known]),
        underruns=count,
        underrun_s=duration,
        window=len(head),
    )

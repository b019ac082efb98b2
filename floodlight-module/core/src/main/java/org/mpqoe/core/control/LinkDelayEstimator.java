package org.mpqoe.core.control;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.mpqoe.core.topology.Topology.LinkKey;

/**
 * Link delays from LLDP probes, for both runtimes. A probe's time from the controller's packet-out
 * to its packet-in is the link's one-way delay plus the two control-channel legs (packet-out to the
 * source switch, packet-in from the destination switch) and the controller's own scheduling. This
 * class takes out the legs and filters what is left:
 *
 * <ul>
 *   <li><b>Control channel.</b> Each switch's round trip is sampled with OpenFlow ECHO ({@link
 *       #controlRtt}); a switch's leg is half the <em>minimum</em> of its last {@link #RTT_WINDOW}
 *       round trips. Scheduling and queueing only ever add to a round trip, so the minimum is the
 *       leg without them, the same floor the link's filter below looks for in the probes.
 *   <li><b>One sample</b> ({@link #oneWayMs}): elapsed minus half of each end's round trip, clamped
 *       at 0. A probe whose source or destination switch has no round trip yet is not a sample.
 *   <li><b>The link's estimate</b>: the minimum of its last {@link #WINDOW} samples (both
 *       directions of a cable count for it), known once it has {@link #MIN_SAMPLES}. Noise that is
 *       left after the subtraction is delay the probe met on the controller's side, so it is
 *       positive; the minimum drops it where a median keeps half of it (docs/floodlight.md, "Link
 *       delays", has the measurement that chose it).
 *   <li><b>Hysteresis.</b> The published delay is the first estimate; it then moves to a new
 *       estimate only when {@link #CONFIRM} estimates in a row differ from it by more than
 *       max({@link #ABS_TOLERANCE_MS} ms, {@link #REL_TOLERANCE} of it). One odd probe, or an
 *       estimate that wobbles around the published value, changes nothing.
 * </ul>
 *
 * A link whose delay is unknown reads {@code NaN} here; {@link LinkStateTracker} and the selectors
 * then use 0, which never makes a path inadmissible (eq. 4). Not thread-safe: {@link
 * LinkStateTracker} holds it under its lock.
 */
public final class LinkDelayEstimator {
  /** Echo round trips kept per switch; the leg is half their minimum. */
  public static final int RTT_WINDOW = 10;

  /** One-way samples kept per link. */
  public static final int WINDOW = 8;

  /**
   * Samples before a link's delay is known: a full window. With fewer, an estimate from the probes
   * of the first seconds (switches still connecting, the controller's code still cold) was
   * published high and then held by the hysteresis (measured: 31.9 ms for a 25 ms link whose later
   * windows said 28.5).
   */
  public static final int MIN_SAMPLES = WINDOW;

  /** Estimates in a row that must differ from the published delay before it moves. */
  public static final int CONFIRM = 3;

  /** A difference of at most this (ms), or of {@link #REL_TOLERANCE}, is no change. */
  public static final double ABS_TOLERANCE_MS = 1.0;

  /** A difference of at most this fraction of the published delay is no change. */
  public static final double REL_TOLERANCE = 0.10;

  private static final class Window {
    private final double[] values;
    private int size;
    private int next;

    Window(int capacity) {
      values = new double[capacity];
    }

    void add(double v) {
      values[next] = v;
      next = (next + 1) % values.length;
      size = Math.min(size + 1, values.length);
    }

    double min() {
      return Arrays.stream(values, 0, size).min().orElse(Double.NaN);
    }
  }

  private static final class LinkFilter {
    final Window samples = new Window(WINDOW);
    double published = Double.NaN;
    int streak;
  }

  private final Map<Long, Window> rtt = new HashMap<>();
  private final Map<LinkKey, LinkFilter> links = new HashMap<>();

  /**
   * One probe's one-way sample: {@code elapsedMs} (packet-out to packet-in) minus half of each
   * end's control-channel round trip, at least 0.
   */
  public static double oneWayMs(double elapsedMs, double rttSrcMs, double rttDstMs) {
    return Math.max(0, elapsedMs - rttSrcMs / 2 - rttDstMs / 2);
  }

  /** Whether the published delay {@code published} should give way to {@code estimate}. */
  static boolean differs(double published, double estimate) {
    return Math.abs(estimate - published) > Math.max(ABS_TOLERANCE_MS, REL_TOLERANCE * published);
  }

  /** One ECHO round trip (ms) of a switch's control channel. */
  public void controlRtt(long dpid, double rttMs) {
    if (!(rttMs >= 0) || Double.isInfinite(rttMs)) {
      throw new IllegalArgumentException("round trip must be a number >= 0");
    }
    rtt.computeIfAbsent(dpid, k -> new Window(RTT_WINDOW)).add(rttMs);
  }

  /** The round trip used for a switch's legs (ms): the minimum of its window, NaN before any. */
  public double controlRtt(long dpid) {
    Window w = rtt.get(dpid);
    return w == null ? Double.NaN : w.min();
  }

  /**
   * A probe from {@code srcDpid} seen on {@code dstDpid} after {@code elapsedMs}: its one-way
   * sample goes to the link {@code key}. Returns the sample, NaN (and nothing recorded) when either
   * switch has no round trip yet.
   */
  public double probe(LinkKey key, long srcDpid, long dstDpid, double elapsedMs) {
    if (!(elapsedMs >= 0) || Double.isInfinite(elapsedMs)) {
      throw new IllegalArgumentException("elapsed time must be a number >= 0");
    }
    double src = controlRtt(srcDpid);
    double dst = controlRtt(dstDpid);
    if (Double.isNaN(src) || Double.isNaN(dst)) {
      return Double.NaN;
    }
    double oneWay = oneWayMs(elapsedMs, src, dst);
    sample(key, oneWay);
    return oneWay;
  }

  /**
   * One one-way delay sample (ms) of a link, the control channel already taken out. Returns whether
   * the published delay changed.
   */
  public boolean sample(LinkKey key, double oneWayMs) {
    if (!(oneWayMs >= 0) || Double.isInfinite(oneWayMs)) {
      throw new IllegalArgumentException("one-way sample must be a number >= 0");
    }
    LinkFilter f = links.computeIfAbsent(key, k -> new LinkFilter());
    f.samples.add(oneWayMs);
    if (f.samples.size < MIN_SAMPLES) {
      return false;
    }
    double estimate = f.samples.min();
    if (Double.isNaN(f.published)) {
      f.published = estimate;
      return true;
    }
    f.streak = differs(f.published, estimate) ? f.streak + 1 : 0;
    if (f.streak >= CONFIRM) {
      f.published = estimate;
      f.streak = 0;
      return true;
    }
    return false;
  }

  /** The link's published delay (ms), NaN while it is unknown. */
  public double delayMs(LinkKey key) {
    LinkFilter f = links.get(key);
    return f == null ? Double.NaN : f.published;
  }

  /** Forgets the links and switches not in these sets (gone from the topology). */
  public void retain(Set<LinkKey> keepLinks, Set<Long> keepSwitches) {
    links.keySet().retainAll(keepLinks);
    rtt.keySet().retainAll(keepSwitches);
  }

  /** The links with samples (for tests and diagnostics). */
  Set<LinkKey> links() {
    return Set.copyOf(links.keySet());
  }
}

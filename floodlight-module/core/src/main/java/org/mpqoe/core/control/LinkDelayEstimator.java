package org.mpqoe.core.control;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.mpqoe.core.topology.Topology.LinkKey;

/**
 * Link delays from LLDP probes, for both runtimes. A probe's time from the controller's packet-out
 * to its packet-in is the link's one-way delay plus what the two switches and the control channel
 * add: the packet-out's way to the source switch and its execution there, the destination switch's
 * datapath miss, upcall and packet-in, the packet-in's way back, and the controller's own
 * scheduling. Two ways of taking that out, one per link:
 *
 * <ul>
 *   <li><b>Reflection</b>, for a runtime that sends reflected probes ({@link #reflected}): per
 *       switch x, let O_x be everything from the controller to a frame leaving x's port, and I_x
 *       everything from a frame arriving at x's port to the controller. A one-way probe over a link
 *       a-b of delay L takes T_ab = O_a + L + I_b; a probe that b sends straight back in its data
 *       plane takes R_a = O_a + 2L + I_a. So L = (R_a + R_b - T_ab - T_ba) / 2 ({@link
 *       #reflectedMs}): every switch's and the control channel's part cancels, however different
 *       the switches are, as long as the link is symmetric. Each of the four is the minimum of its
 *       last {@link #WINDOW} times: scheduling, queueing and cache misses only ever add to a time,
 *       so a quantity's minimum is its clean value. The link is known once each of the four has a
 *       full window.
 *   <li><b>Echo subtraction</b>, for a link without reflected probes (the Floodlight runtime): each
 *       switch's round trip is sampled with OpenFlow ECHO ({@link #controlRtt}); a switch's leg is
 *       half the minimum of its last {@link #RTT_WINDOW} round trips. One sample ({@link
 *       #oneWayMs}) is elapsed minus half of each end's round trip, clamped at 0; a probe whose
 *       source or destination switch has no round trip yet is not a sample. The estimate is the
 *       minimum of the link's last {@link #WINDOW} samples (both directions of a cable count),
 *       known once it has {@link #MIN_SAMPLES}. The switches' datapath time is not in a round trip
 *       and stays in the estimate (docs/floodlight.md, "Link delays", has the measurement).
 *   <li><b>Hysteresis</b>, for both: the published delay is the first estimate; it then moves to a
 *       new estimate only when {@link #CONFIRM} estimates in a row differ from it by more than
 *       max({@link #ABS_TOLERANCE_MS} ms, {@link #REL_TOLERANCE} of it). An estimate is made at
 *       each echo-subtracted sample, and by reflection once per round (each of the four quantities
 *       has a new time). One odd probe, or an estimate that wobbles around the published value,
 *       changes nothing.
 * </ul>
 *
 * Which way a link is measured is decided in one place ({@link #update}): by reflection as soon as
 * either of its ends has a reflected sample, otherwise by echo subtraction. A link whose delay is
 * unknown reads {@code NaN} here; {@link LinkStateTracker} and the selectors then use 0, which
 * never makes a path inadmissible (eq. 4). Not thread-safe: {@link LinkStateTracker} holds it under
 * its lock.
 */
public final class LinkDelayEstimator {
  /** Echo round trips kept per switch; the leg is half their minimum. */
  public static final int RTT_WINDOW = 10;

  /**
   * Samples kept per link for the echo subtraction (both directions together), and per quantity
   * (each direction's one-way times, each end's reflected times) for the reflection.
   */
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

    /** The minimum of a full window, NaN before. */
    double fullMin() {
      return size == values.length ? min() : Double.NaN;
    }
  }

  /** The reflection's quantities, as bits of {@code LinkFilter.fresh}. */
  private static final int FORWARD = 1;

  private static final int BACKWARD = 2;
  private static final int REFLECTED_A = 4;
  private static final int REFLECTED_B = 8;
  private static final int ROUND = FORWARD | BACKWARD | REFLECTED_A | REFLECTED_B;

  /** A switch port. */
  private record End(long dpid, int port) {}

  private static final class LinkFilter {
    /** Echo-subtracted one-way samples, both directions. */
    final Window samples = new Window(WINDOW);

    /** Packet-out to packet-in times of one-way probes, from the key's end A to B and back. */
    final Window forward = new Window(WINDOW);

    final Window backward = new Window(WINDOW);

    /** Which of the reflection's four quantities have a new time since its last estimate. */
    int fresh;

    double published = Double.NaN;
    int streak;
  }

  private final Map<Long, Window> rtt = new HashMap<>();
  private final Map<LinkKey, LinkFilter> links = new HashMap<>();

  /** Reflected probes' times, by the port they left and came back to. */
  private final Map<End, Window> reflected = new HashMap<>();

  /** The link last seen at a port (the one whose one-way probes it sent or received). */
  private final Map<End, LinkKey> linkAt = new HashMap<>();

  /**
   * One probe's one-way sample: {@code elapsedMs} (packet-out to packet-in) minus half of each
   * end's control-channel round trip, at least 0.
   */
  public static double oneWayMs(double elapsedMs, double rttSrcMs, double rttDstMs) {
    return Math.max(0, elapsedMs - rttSrcMs / 2 - rttDstMs / 2);
  }

  /**
   * A link's delay from its four clean times (ms): {@code reflectedA} of a probe out of end A and
   * back, {@code reflectedB} the same at end B, {@code forward} of a one-way probe from A to B,
   * {@code backward} from B to A. Every switch's time (O_a, I_a, O_b, I_b) is in both sums and
   * cancels; at least 0.
   */
  public static double reflectedMs(
      double reflectedA, double reflectedB, double forward, double backward) {
    return Math.max(0, (reflectedA + reflectedB - forward - backward) / 2);
  }

  /** Whether the published delay {@code published} should give way to {@code estimate}. */
  static boolean differs(double published, double estimate) {
    return Math.abs(estimate - published) > Math.max(ABS_TOLERANCE_MS, REL_TOLERANCE * published);
  }

  /** One ECHO round trip (ms) of a switch's control channel. */
  public void controlRtt(long dpid, double rttMs) {
    checkTime(rttMs, "round trip");
    rtt.computeIfAbsent(dpid, k -> new Window(RTT_WINDOW)).add(rttMs);
  }

  /** The round trip used for a switch's legs (ms): the minimum of its window, NaN before any. */
  public double controlRtt(long dpid) {
    Window w = rtt.get(dpid);
    return w == null ? Double.NaN : w.min();
  }

  /**
   * A one-way probe sent out of {@code (srcDpid, srcPort)} and seen on {@code (dstDpid, dstPort)}
   * after {@code elapsedMs} (packet-out to packet-in): its time goes to the link's window of that
   * direction, and its echo-subtracted sample to the link's echo window. Returns that sample, NaN
   * when either switch has no round trip yet (then the echo window gets nothing).
   */
  public double probe(long srcDpid, int srcPort, long dstDpid, int dstPort, double elapsedMs) {
    checkTime(elapsedMs, "elapsed time");
    LinkKey key = LinkKey.of(srcDpid, srcPort, dstDpid, dstPort);
    LinkFilter f = links.computeIfAbsent(key, k -> new LinkFilter());
    boolean fromA = key.dpidA() == srcDpid && key.portA() == srcPort;
    (fromA ? f.forward : f.backward).add(elapsedMs);
    linkAt.put(new End(srcDpid, srcPort), key);
    linkAt.put(new End(dstDpid, dstPort), key);
    double src = controlRtt(srcDpid);
    double dst = controlRtt(dstDpid);
    double oneWay =
        Double.isNaN(src) || Double.isNaN(dst) ? Double.NaN : oneWayMs(elapsedMs, src, dst);
    if (!Double.isNaN(oneWay)) {
      f.samples.add(oneWay);
    }
    update(key, f, fromA ? FORWARD : BACKWARD, !Double.isNaN(oneWay));
    return oneWay;
  }

  /**
   * A reflected probe: sent out of {@code (dpid, port)}, sent straight back by the switch at the
   * other end of the cable, and seen on the same port {@code elapsedMs} after its packet-out.
   * Returns whether the published delay of the link at that port changed (false while no one-way
   * probe told which link that is).
   */
  public boolean reflected(long dpid, int port, double elapsedMs) {
    checkTime(elapsedMs, "elapsed time");
    End end = new End(dpid, port);
    reflected.computeIfAbsent(end, k -> new Window(WINDOW)).add(elapsedMs);
    LinkKey key = linkAt.get(end);
    if (key == null) {
      return false;
    }
    boolean atA = key.dpidA() == dpid && key.portA() == port;
    return update(key, links.get(key), atA ? REFLECTED_A : REFLECTED_B, false);
  }

  private static void checkTime(double ms, String what) {
    if (!(ms >= 0) || Double.isInfinite(ms)) {
      throw new IllegalArgumentException(what + " must be a number >= 0");
    }
  }

  /**
   * A new time of the link: {@code quantity} the reflection's quantity it was (0: none), {@code
   * echoSample} whether it added an echo-subtracted sample. The one place that decides how a link
   * is measured (see the class comment), and when an estimate is made: by echo subtraction at each
   * new sample; by reflection once all four quantities have a new time since its last estimate (a
   * round of probes), so that an estimate never combines a quantity that already follows a changed
   * delay with one that does not yet (for a step from 5 to 30 ms, the one-way windows' new minima
   * with the reflected windows' old ones say 0 ms). Returns whether the published delay moved.
   */
  private boolean update(LinkKey key, LinkFilter f, int quantity, boolean echoSample) {
    Window ra = reflected.get(new End(key.dpidA(), key.portA()));
    Window rb = reflected.get(new End(key.dpidB(), key.portB()));
    double estimate;
    if (ra == null && rb == null) {
      if (!echoSample || f.samples.size < MIN_SAMPLES) {
        return false;
      }
      estimate = f.samples.min();
    } else {
      f.fresh |= quantity;
      if (f.fresh != ROUND || ra == null || rb == null) {
        return false;
      }
      // NaN while any of the four windows is not full; then the next time tries again.
      estimate = reflectedMs(ra.fullMin(), rb.fullMin(), f.forward.fullMin(), f.backward.fullMin());
      if (Double.isNaN(estimate)) {
        return false;
      }
      f.fresh = 0;
    }
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

  /**
   * One echo-subtracted one-way delay sample (ms) of a link, the control channel already taken out.
   * Returns whether the published delay changed.
   */
  public boolean sample(LinkKey key, double oneWayMs) {
    checkTime(oneWayMs, "one-way sample");
    LinkFilter f = links.computeIfAbsent(key, k -> new LinkFilter());
    f.samples.add(oneWayMs);
    return update(key, f, 0, true);
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
    linkAt.values().retainAll(keepLinks);
    reflected.keySet().retainAll(linkAt.keySet());
  }

  /** The links with samples (for tests and diagnostics). */
  Set<LinkKey> links() {
    return Set.copyOf(links.keySet());
  }
}

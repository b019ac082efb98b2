package org.mpqoe.floodlight;

import java.util.HashMap;
import java.util.Map;

/**
 * Turns Floodlight's port rates into the cumulative counters the core expects.
 *
 * <p>Floodlight's StatisticsCollector keeps only the latest rate of each port ({@code
 * SwitchPortBandwidth}: transmitted bits per second over the polling period that ended when the
 * sample was made, {@code getStartTime_ns()}); its byte counters are not public. The core's {@code
 * LinkStateTracker} wants transmitted bytes so far and a time, and computes rates from differences.
 * So each new rate is integrated over its own period (the time since the previous sample of the
 * port): the differences of the resulting counter give back Floodlight's rates. The first sample of
 * a port only starts its counter (its period is unknown), so a port's load shows one polling period
 * later than in the standalone runtime. Thread-safe.
 */
final class PortBandwidthFeed {
  /** Where counters go: the control plane's port statistics. */
  interface Sink {
    void portStats(long dpid, int port, long txBytes, long nanoTime);
  }

  private record Key(long dpid, int port) {}

  private record Counter(double txBytes, long nanos) {}

  private final Map<Key, Counter> counters = new HashMap<>();

  /**
   * One sample of one port. A sample already seen (same time) is skipped.
   *
   * @param txBitsPerSecond Floodlight's {@code getBitsPerSecondTx()}
   * @param sampleNanos Floodlight's {@code getStartTime_ns()} (System.nanoTime of the sample)
   * @return whether the sample was new and passed to {@code sink}
   */
  synchronized boolean sample(
      long dpid, int port, long txBitsPerSecond, long sampleNanos, Sink sink) {
    Key key = new Key(dpid, port);
    Counter prev = counters.get(key);
    if (prev != null && prev.nanos() == sampleNanos) {
      return false;
    }
    double bytes = 0;
    if (prev != null && sampleNanos > prev.nanos()) {
      double seconds = (sampleNanos - prev.nanos()) / 1e9;
      bytes = prev.txBytes() + Math.max(0, txBitsPerSecond) / 8.0 * seconds;
    }
    counters.put(key, new Counter(bytes, sampleNanos));
    sink.portStats(dpid, port, Math.round(bytes), sampleNanos);
    return true;
  }
}

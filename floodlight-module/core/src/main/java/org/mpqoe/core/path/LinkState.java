package org.mpqoe.core.path;

import java.util.Arrays;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.Topology;

/**
 * An immutable snapshot of every link's capacity, measured load and delay, indexed by link index.
 * The controller builds it from port statistics and latency measurements; simulations build it from
 * a scenario.
 */
public final class LinkState {
  private final double[] capacityMbps;
  private final double[] loadMbps;
  private final double[] delayMs;

  public LinkState(double[] capacityMbps, double[] loadMbps, double[] delayMs) {
    if (capacityMbps.length != loadMbps.length || capacityMbps.length != delayMs.length) {
      throw new IllegalArgumentException("capacity, load and delay need one entry per link");
    }
    for (int i = 0; i < capacityMbps.length; i++) {
      if (!(capacityMbps[i] > 0)) {
        throw new IllegalArgumentException("link " + i + ": capacity must be positive");
      }
      if (!(loadMbps[i] >= 0) || !(delayMs[i] >= 0)) {
        throw new IllegalArgumentException("link " + i + ": load and delay must be >= 0");
      }
    }
    this.capacityMbps = capacityMbps.clone();
    this.loadMbps = loadMbps.clone();
    this.delayMs = delayMs.clone();
  }

  /** The descriptor's nominal capacities and delays, no load. */
  public static LinkState nominal(Topology topology) {
    int n = topology.links().size();
    double[] cap = new double[n];
    double[] delay = new double[n];
    for (Link l : topology.links()) {
      cap[l.index()] = l.capacityMbps();
      delay[l.index()] = l.delayMs();
    }
    return new LinkState(cap, new double[n], delay);
  }

  public int size() {
    return capacityMbps.length;
  }

  public double capacityMbps(int link) {
    return capacityMbps[link];
  }

  public double loadMbps(int link) {
    return loadMbps[link];
  }

  public double delayMs(int link) {
    return delayMs[link];
  }

  /** Capacity minus load, never below 0. */
  public double availableMbps(int link) {
    return Math.max(0, capacityMbps[link] - loadMbps[link]);
  }

  /** Congestion level: load / capacity (may exceed 1 when a link is oversubscribed). */
  public double congestion(int link) {
    return loadMbps[link] / capacityMbps[link];
  }

  /** This snapshot with {@code addMbps} more load on every link of {@code path}. */
  public LinkState withAddedLoad(Path path, double addMbps) {
    double[] load = loadMbps.clone();
    for (int l : path.links()) {
      load[l] = Math.max(0, load[l] + addMbps);
    }
    return new LinkState(capacityMbps, load, delayMs);
  }

  /** This snapshot with the given loads. */
  public LinkState withLoads(double[] newLoadMbps) {
    return new LinkState(capacityMbps, newLoadMbps, delayMs);
  }

  /** A copy of the per-link loads. */
  public double[] loads() {
    return loadMbps.clone();
  }

  @Override
  public String toString() {
    return "LinkState{capacity="
        + Arrays.toString(capacityMbps)
        + ", load="
        + Arrays.toString(loadMbps)
        + ", delay="
        + Arrays.toString(delayMs)
        + "}";
  }
}

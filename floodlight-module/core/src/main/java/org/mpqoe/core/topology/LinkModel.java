package org.mpqoe.core.topology;

import java.util.Collections;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The GA paper's per-topology link model: link delays within a range and link bandwidth with a
 * given mean and standard deviation for each number of clients, and the GA population the paper
 * used on this topology (0 when it gives none).
 */
public record LinkModel(
    double delayMinMs,
    double delayMaxMs,
    NavigableMap<Integer, Moments> bandwidthByClients,
    int gaPopulation) {

  /** Mean and standard deviation of a quantity. */
  public record Moments(double mean, double std) {}

  public LinkModel {
    bandwidthByClients = Collections.unmodifiableNavigableMap(new TreeMap<>(bandwidthByClients));
  }

  /**
   * Bandwidth moments for {@code clients}: the paper's row when there is one, linear interpolation
   * between the neighbouring rows otherwise, the nearest row beyond the ends.
   */
  public Moments bandwidthFor(int clients) {
    var exact = bandwidthByClients.get(clients);
    if (exact != null) {
      return exact;
    }
    var lo = bandwidthByClients.floorEntry(clients);
    var hi = bandwidthByClients.ceilingEntry(clients);
    if (lo == null) {
      return hi.getValue();
    }
    if (hi == null) {
      return lo.getValue();
    }
    double t = (double) (clients - lo.getKey()) / (hi.getKey() - lo.getKey());
    return new Moments(
        lo.getValue().mean() + t * (hi.getValue().mean() - lo.getValue().mean()),
        lo.getValue().std() + t * (hi.getValue().std() - lo.getValue().std()));
  }
}

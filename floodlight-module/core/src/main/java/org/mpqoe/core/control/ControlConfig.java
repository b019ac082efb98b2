package org.mpqoe.core.control;

import org.mpqoe.core.select.GaConfig;
import org.mpqoe.core.select.QomraConfig;
import org.mpqoe.core.select.SelectionConfig;
import org.mpqoe.core.select.Selectors;

/**
 * The controller's settings, shared by both runtimes. Defaults live in {@link #defaults()}.
 *
 * @param algorithm selector name ({@link Selectors#NAMES})
 * @param selection objective weights and thresholds
 * @param ga GA parameters
 * @param maxHops candidate path bound
 * @param idleTimeoutS subflow rules expire after this long without traffic; their removal ends the
 *     subflow in the controller's books
 * @param subflowPriority priority of subflow rules (above plain forwarding)
 * @param plainPriority priority of plain shortest-path rules and host delivery rules
 * @param statsIntervalS port statistics polling period
 * @param segmentRouting install subflows as MPLS label stacks instead of per-hop rules (where the
 *     switches support MPLS; false is the per-hop fallback)
 * @param qomra QoMRA's parameters (k, interval t, requested resolution, weights)
 * @param discovery how the topology is learnt from the network (servers, host grouping, LLDP)
 */
public record ControlConfig(
    String algorithm,
    SelectionConfig selection,
    GaConfig ga,
    int maxHops,
    int idleTimeoutS,
    int subflowPriority,
    int plainPriority,
    int statsIntervalS,
    boolean segmentRouting,
    QomraConfig qomra,
    DiscoveryConfig discovery) {

  public ControlConfig {
    if (qomra == null) {
      throw new IllegalArgumentException("QoMRA parameters missing");
    }
    if (discovery == null) {
      throw new IllegalArgumentException("discovery settings missing");
    }
    Selectors.create(algorithm, ga);
    if (maxHops < 1) {
      throw new IllegalArgumentException("maxHops must be at least 1");
    }
    if (idleTimeoutS < 1 || idleTimeoutS > 65535) {
      throw new IllegalArgumentException("idle timeout must be 1..65535 s");
    }
    if (subflowPriority <= plainPriority || plainPriority < 1 || subflowPriority > 65535) {
      throw new IllegalArgumentException("need 0 < plain priority < subflow priority <= 65535");
    }
    if (statsIntervalS < 1) {
      throw new IllegalArgumentException("statistics interval must be at least 1 s");
    }
  }

  public static ControlConfig defaults() {
    return new ControlConfig(
        "ga",
        SelectionConfig.DEFAULTS,
        GaConfig.DEFAULTS,
        8,
        10,
        40000,
        10000,
        2,
        false,
        QomraConfig.DEFAULTS,
        DiscoveryConfig.DEFAULTS);
  }

  public ControlConfig withAlgorithm(String name) {
    return new ControlConfig(
        name,
        selection,
        ga,
        maxHops,
        idleTimeoutS,
        subflowPriority,
        plainPriority,
        statsIntervalS,
        segmentRouting,
        qomra,
        discovery);
  }

  public ControlConfig withSelection(SelectionConfig s) {
    return new ControlConfig(
        algorithm,
        s,
        ga,
        maxHops,
        idleTimeoutS,
        subflowPriority,
        plainPriority,
        statsIntervalS,
        segmentRouting,
        qomra,
        discovery);
  }

  public ControlConfig withGa(GaConfig g) {
    return new ControlConfig(
        algorithm,
        selection,
        g,
        maxHops,
        idleTimeoutS,
        subflowPriority,
        plainPriority,
        statsIntervalS,
        segmentRouting,
        qomra,
        discovery);
  }

  public ControlConfig withTimers(int newIdleTimeoutS, int newStatsIntervalS) {
    return new ControlConfig(
        algorithm,
        selection,
        ga,
        maxHops,
        newIdleTimeoutS,
        subflowPriority,
        plainPriority,
        newStatsIntervalS,
        segmentRouting,
        qomra,
        discovery);
  }

  public ControlConfig withRouting(int newMaxHops, boolean newSegmentRouting) {
    return new ControlConfig(
        algorithm,
        selection,
        ga,
        newMaxHops,
        idleTimeoutS,
        subflowPriority,
        plainPriority,
        statsIntervalS,
        newSegmentRouting,
        qomra,
        discovery);
  }

  public ControlConfig withQomra(QomraConfig q) {
    return new ControlConfig(
        algorithm,
        selection,
        ga,
        maxHops,
        idleTimeoutS,
        subflowPriority,
        plainPriority,
        statsIntervalS,
        segmentRouting,
        q,
        discovery);
  }

  public ControlConfig withDiscovery(DiscoveryConfig d) {
    return new ControlConfig(
        algorithm,
        selection,
        ga,
        maxHops,
        idleTimeoutS,
        subflowPriority,
        plainPriority,
        statsIntervalS,
        segmentRouting,
        qomra,
        d);
  }
}

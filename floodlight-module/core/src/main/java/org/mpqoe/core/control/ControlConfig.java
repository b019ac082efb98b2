package org.mpqoe.core.control;

import java.util.List;
import java.util.function.Consumer;
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
 * @param selectAt when a client's paths are selected ({@link #SELECT_AT}): {@code syn} at its
 *     MP_CAPABLE SYN (the GA paper), {@code first-packet} at the first packet-in between it and a
 *     server (an ARP request or any IPv4 packet), so that its SYN finds them ready
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
    DiscoveryConfig discovery,
    String selectAt) {

  /** The values of {@link #selectAt}, the paper's first. */
  public static final List<String> SELECT_AT = List.of("syn", "first-packet");

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
    // The SYN/ACK copy rule sits one above the subflow rules (SubflowRules).
    if (subflowPriority <= plainPriority || plainPriority < 1 || subflowPriority > 65534) {
      throw new IllegalArgumentException("need 0 < plain priority < subflow priority <= 65534");
    }
    if (statsIntervalS < 1) {
      throw new IllegalArgumentException("statistics interval must be at least 1 s");
    }
    if (!SELECT_AT.contains(selectAt)) {
      throw new IllegalArgumentException("selectAt must be one of " + SELECT_AT);
    }
  }

  /** True when paths are selected at the first packet-in between a client and a server. */
  public boolean selectsEarly() {
    return selectAt.equals("first-packet");
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
        DiscoveryConfig.DEFAULTS,
        SELECT_AT.get(0));
  }

  public ControlConfig withAlgorithm(String name) {
    return with(c -> c.algorithm = name);
  }

  public ControlConfig withSelection(SelectionConfig s) {
    return with(c -> c.selection = s);
  }

  public ControlConfig withGa(GaConfig g) {
    return with(c -> c.ga = g);
  }

  public ControlConfig withTimers(int newIdleTimeoutS, int newStatsIntervalS) {
    return with(
        c -> {
          c.idleTimeoutS = newIdleTimeoutS;
          c.statsIntervalS = newStatsIntervalS;
        });
  }

  public ControlConfig withRouting(int newMaxHops, boolean newSegmentRouting) {
    return with(
        c -> {
          c.maxHops = newMaxHops;
          c.segmentRouting = newSegmentRouting;
        });
  }

  public ControlConfig withQomra(QomraConfig q) {
    return with(c -> c.qomra = q);
  }

  public ControlConfig withDiscovery(DiscoveryConfig d) {
    return with(c -> c.discovery = d);
  }

  public ControlConfig withSelectAt(String when) {
    return with(c -> c.selectAt = when);
  }

  /** This config with {@code change} made to a copy of its components, checked once. */
  private ControlConfig with(Consumer<Copy> change) {
    Copy c = new Copy(this);
    change.accept(c);
    return c.build();
  }

  /** The components of a config, changed one by one and built (and checked) once. */
  private static final class Copy {
    String algorithm;
    SelectionConfig selection;
    GaConfig ga;
    int maxHops;
    int idleTimeoutS;
    int subflowPriority;
    int plainPriority;
    int statsIntervalS;
    boolean segmentRouting;
    QomraConfig qomra;
    DiscoveryConfig discovery;
    String selectAt;

    Copy(ControlConfig c) {
      algorithm = c.algorithm;
      selection = c.selection;
      ga = c.ga;
      maxHops = c.maxHops;
      idleTimeoutS = c.idleTimeoutS;
      subflowPriority = c.subflowPriority;
      plainPriority = c.plainPriority;
      statsIntervalS = c.statsIntervalS;
      segmentRouting = c.segmentRouting;
      qomra = c.qomra;
      discovery = c.discovery;
      selectAt = c.selectAt;
    }

    ControlConfig build() {
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
          discovery,
          selectAt);
    }
  }
}

package org.mpqoe.floodlight;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.RestAccess;
import org.mpqoe.core.control.SettingsSchema;
import org.mpqoe.core.select.QomraConfig;
import org.mpqoe.core.select.SelectionConfig;
import org.mpqoe.core.topology.TopologyBuilder;

/**
 * The module's parameters, read from Floodlight's properties file as {@code
 * org.mpqoe.floodlight.MpqoeModule.<name>=<value>}: the controller's settings ({@link
 * SettingsSchema}: the same names, ranges and defaults as REST and {@code bin/mpqoe controller},
 * except those of the standalone runtime only, such as its LLDP probe period: Floodlight's link
 * discovery has its own), plus those only the module has: the descriptor, LLDP latencies and the
 * REST token.
 *
 * @param topology embedded descriptor name (e.g. {@code compuserve}) or descriptor file, or null:
 *     without one the topology is what Floodlight discovered; with one, the descriptor is an
 *     overlay (names, hosts, capacities, delays) checked against what was discovered
 * @param discovery how a discovered network becomes a topology, from the settings {@code servers},
 *     {@code hostGrouping} and {@code defaultLinkCapacityMbps} ({@link
 *     org.mpqoe.core.control.DiscoveryConfig#topologyOptions})
 * @param config the control plane's settings
 * @param useLldpLatency replace the descriptor's link delays by the ones estimated from
 *     Floodlight's LLDP probes (docs/floodlight.md, "Link delays")
 * @param restToken the token REST writes must carry when Floodlight's REST server listens beyond
 *     loopback ({@link RestAccess}); null for none
 */
public record MpqoeSettings(
    String topology,
    TopologyBuilder.Options discovery,
    ControlConfig config,
    boolean useLldpLatency,
    String restToken) {
  public static final String TOPOLOGY = "topology";
  public static final String USE_LLDP_LATENCY = "useLldpLatency";
  public static final String REST_TOKEN = "restToken";

  /** The parameters only the module has; the others are {@link SettingsSchema#ALL}. */
  public static final List<String> OWN = List.of(TOPOLOGY, USE_LLDP_LATENCY, REST_TOKEN);

  /** Every parameter name; anything else in the properties file is an error (typos). */
  public static final List<String> NAMES =
      Stream.concat(
              OWN.stream(),
              SettingsSchema.ALL.stream()
                  .filter(s -> !s.standaloneOnly())
                  .map(SettingsSchema.Setting::name))
          .toList();

  /**
   * Reads the parameters; absent or blank ones take their default.
   *
   * @throws IllegalArgumentException naming the parameter, for an unknown name, a setting of the
   *     standalone runtime only, neither a topology nor servers, or an invalid value
   */
  public static MpqoeSettings parse(Map<String, String> params) {
    for (String name : new TreeSet<>(params.keySet())) {
      if (SettingsSchema.named(name).filter(SettingsSchema.Setting::standaloneOnly).isPresent()) {
        throw new IllegalArgumentException(
            "parameter '"
                + name
                + "' is the standalone controller's: Floodlight's LinkDiscoveryManager probes"
                + " for links here");
      }
      if (!NAMES.contains(name)) {
        throw new IllegalArgumentException(
            "unknown parameter "
                + SettingsSchema.quote(name)
                + " (known: "
                + String.join(", ", NAMES)
                + ")");
      }
    }
    String topology = value(params, TOPOLOGY);
    String lldp = value(params, USE_LLDP_LATENCY);
    boolean useLldp = lldp != null && SettingsSchema.bool(USE_LLDP_LATENCY, lldp);
    Map<String, String> settings = new HashMap<>(params);
    OWN.forEach(settings::remove);
    ControlConfig config;
    TopologyBuilder.Options discovery;
    try {
      config = SettingsSchema.parse(ControlConfig.defaults(), settings);
      discovery = config.discovery().topologyOptions(topology != null);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid mpqoe parameters: " + e.getMessage(), e);
    }
    return new MpqoeSettings(topology, discovery, config, useLldp, value(params, REST_TOKEN));
  }

  /** Without the token. */
  @Override
  public String toString() {
    return "MpqoeSettings[" + describe() + (restToken == null ? "" : ", REST token set") + "]";
  }

  /**
   * Whether link delays are the LLDP estimates: asked for, or there is no descriptor to take them
   * from.
   */
  public boolean delaysFromLldp() {
    return useLldpLatency || topology == null;
  }

  /** One line for the log; QoMRA's parameters only when QoMRA is the algorithm. */
  public String describe() {
    ControlConfig c = config;
    SelectionConfig s = c.selection();
    QomraConfig q = c.qomra();
    String line =
        String.format(
            Locale.ROOT,
            "topology %s, algorithm %s, alpha %s, beta %s, thrDelayMs %s, thrCong %s, maxHops %d,"
                + " idleTimeoutS %d, statsIntervalS %d, %s, link delays from %s",
            topology == null
                ? "discovered, servers " + String.join(" ", discovery.serverIps())
                : topology + " (overlay on what was discovered)",
            c.algorithm(),
            s.alpha(),
            s.beta(),
            s.thrDelayMs(),
            s.thrCong(),
            c.maxHops(),
            c.idleTimeoutS(),
            c.statsIntervalS(),
            c.segmentRouting() ? "segment routing" : "per-hop rules",
            delaysFromLldp() ? "LLDP" : "the descriptor");
    if (!c.algorithm().equals("qomra")) {
      return line;
    }
    return line
        + String.format(
            Locale.ROOT,
            ", QoMRA k %d, t %s s, %s (b_r %s Mbit/s a subflow), weights delay %s loss %s"
                + " criticality %s congestion %s",
            q.k(),
            q.intervalS(),
            q.resolution().label(),
            q.requiredMbps(),
            q.delayWeight(),
            q.lossWeight(),
            q.criticalityWeight(),
            q.congestionWeight());
  }

  private static String value(Map<String, String> params, String name) {
    String v = params.get(name);
    return v == null || v.isBlank() ? null : v.trim();
  }
}

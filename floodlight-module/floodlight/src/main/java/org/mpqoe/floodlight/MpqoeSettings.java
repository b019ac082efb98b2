package org.mpqoe.floodlight;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.select.QomraConfig;
import org.mpqoe.core.select.Resolution;
import org.mpqoe.core.select.SelectionConfig;

/**
 * The module's parameters, read from Floodlight's properties file as {@code
 * org.mpqoe.floodlight.MpqoeModule.<name>=<value>}. Every default is {@link
 * ControlConfig#defaults()}'s, so the module and the standalone controller start from the same
 * settings; only {@code topology} has none.
 *
 * @param topology embedded descriptor name (e.g. {@code compuserve}) or descriptor file: the
 *     controller takes hosts, ports, capacities and delays from it
 * @param config the control plane's settings
 * @param useLldpLatency replace the descriptor's link delays by Floodlight's LLDP latencies
 */
public record MpqoeSettings(String topology, ControlConfig config, boolean useLldpLatency) {
  public static final String TOPOLOGY = "topology";
  public static final String ALGORITHM = "algorithm";
  public static final String MAX_HOPS = "maxHops";
  public static final String IDLE_TIMEOUT = "idleTimeoutS";
  public static final String STATS_INTERVAL = "statsIntervalS";
  public static final String SEGMENT_ROUTING = "segmentRouting";
  public static final String ALPHA = "alpha";
  public static final String BETA = "beta";
  public static final String THR_DELAY = "thrDelayMs";
  public static final String THR_CONG = "thrCong";
  public static final String USE_LLDP_LATENCY = "useLldpLatency";
  public static final String QOMRA_K = "qomraK";
  public static final String QOMRA_INTERVAL = "qomraIntervalS";
  public static final String QOMRA_RESOLUTION = "qomraResolution";
  public static final String QOMRA_DELAY_WEIGHT = "qomraDelayWeight";
  public static final String QOMRA_LOSS_WEIGHT = "qomraLossWeight";
  public static final String QOMRA_CRITICALITY_WEIGHT = "qomraCriticalityWeight";
  public static final String QOMRA_CONGESTION_WEIGHT = "qomraCongestionWeight";

  /** Every parameter name; anything else in the properties file is an error (typos). */
  public static final List<String> NAMES =
      List.of(
          TOPOLOGY,
          ALGORITHM,
          MAX_HOPS,
          IDLE_TIMEOUT,
          STATS_INTERVAL,
          SEGMENT_ROUTING,
          ALPHA,
          BETA,
          THR_DELAY,
          THR_CONG,
          USE_LLDP_LATENCY,
          QOMRA_K,
          QOMRA_INTERVAL,
          QOMRA_RESOLUTION,
          QOMRA_DELAY_WEIGHT,
          QOMRA_LOSS_WEIGHT,
          QOMRA_CRITICALITY_WEIGHT,
          QOMRA_CONGESTION_WEIGHT);

  /**
   * Reads the parameters; absent or blank ones take their default.
   *
   * @throws IllegalArgumentException naming the parameter, for an unknown name, a missing topology
   *     or an invalid value
   */
  public static MpqoeSettings parse(Map<String, String> params) {
    for (String name : new TreeSet<>(params.keySet())) {
      if (!NAMES.contains(name)) {
        throw new IllegalArgumentException(
            "unknown parameter '" + name + "' (known: " + String.join(", ", NAMES) + ")");
      }
    }
    String topology = value(params, TOPOLOGY);
    if (topology == null) {
      throw new IllegalArgumentException(
          "parameter '"
              + TOPOLOGY
              + "' is required: an embedded descriptor name (e.g. compuserve) or a descriptor"
              + " file");
    }
    ControlConfig d = ControlConfig.defaults();
    SelectionConfig s = d.selection();
    String algorithm = value(params, ALGORITHM);
    double alpha = number(params, ALPHA, s.alpha());
    double beta = number(params, BETA, s.beta());
    double thrDelay = number(params, THR_DELAY, s.thrDelayMs());
    double thrCong = number(params, THR_CONG, s.thrCong());
    int idle = integer(params, IDLE_TIMEOUT, d.idleTimeoutS());
    int stats = integer(params, STATS_INTERVAL, d.statsIntervalS());
    int maxHops = integer(params, MAX_HOPS, d.maxHops());
    boolean sr = bool(params, SEGMENT_ROUTING, d.segmentRouting());
    boolean lldp = bool(params, USE_LLDP_LATENCY, false);
    QomraConfig q = d.qomra();
    int k = integer(params, QOMRA_K, q.k());
    double interval = number(params, QOMRA_INTERVAL, q.intervalS());
    String resolution = value(params, QOMRA_RESOLUTION);
    double wd = number(params, QOMRA_DELAY_WEIGHT, q.delayWeight());
    double wl = number(params, QOMRA_LOSS_WEIGHT, q.lossWeight());
    double wc = number(params, QOMRA_CRITICALITY_WEIGHT, q.criticalityWeight());
    double wg = number(params, QOMRA_CONGESTION_WEIGHT, q.congestionWeight());
    ControlConfig config;
    try {
      QomraConfig qomra =
          new QomraConfig(
              k,
              interval,
              resolution == null ? q.resolution() : Resolution.parse(resolution),
              wd,
              wl,
              wc,
              wg);
      config =
          d.withAlgorithm(algorithm == null ? d.algorithm() : algorithm)
              .withSelection(s.withWeights(alpha, beta).withThresholds(thrDelay, thrCong))
              .withTimers(idle, stats)
              .withRouting(maxHops, sr)
              .withQomra(qomra);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid mpqoe parameters: " + e.getMessage(), e);
    }
    return new MpqoeSettings(topology, config, lldp);
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
            topology,
            c.algorithm(),
            s.alpha(),
            s.beta(),
            s.thrDelayMs(),
            s.thrCong(),
            c.maxHops(),
            c.idleTimeoutS(),
            c.statsIntervalS(),
            c.segmentRouting() ? "segment routing" : "per-hop rules",
            useLldpLatency ? "LLDP" : "the descriptor");
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

  private static double number(Map<String, String> params, String name, double fallback) {
    String v = value(params, name);
    if (v == null) {
      return fallback;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw invalid(name, v, "a number");
    }
  }

  private static int integer(Map<String, String> params, String name, int fallback) {
    String v = value(params, name);
    if (v == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw invalid(name, v, "an integer");
    }
  }

  private static boolean bool(Map<String, String> params, String name, boolean fallback) {
    String v = value(params, name);
    if (v == null) {
      return fallback;
    }
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true", "yes" -> true;
      case "false", "no" -> false;
      default -> throw invalid(name, v, "true or false");
    };
  }

  private static IllegalArgumentException invalid(String name, String value, String expected) {
    return new IllegalArgumentException(
        "parameter '" + name + "' must be " + expected + ", got '" + value + "'");
  }
}

package org.mpqoe.core.control;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.select.QomraConfig;
import org.mpqoe.core.select.Resolution;
import org.mpqoe.core.select.SelectionConfig;
import org.mpqoe.core.select.Selectors;
import org.mpqoe.core.topology.TopologyBuilder;

/**
 * The controller's settings as one schema: every setting's name, type, range, default and meaning.
 * REST ({@code GET/PUT config}), Floodlight's properties and the options of {@code bin/mpqoe
 * controller} all read, check and show settings through it, so a value is refused (out of range,
 * not finite, wrong type) the same way everywhere. Defaults are {@link ControlConfig#defaults()}'s.
 */
public final class SettingsSchema {
  /** The kinds of value a setting takes. */
  public enum Type {
    /** One of a list of names. */
    CHOICE,
    INTEGER,
    /** A finite decimal number. */
    NUMBER,
    BOOLEAN,
    /** IPv4 addresses: comma-separated in text, an array of strings in JSON. */
    IPV4_LIST
  }

  /** A user's value as quoted in an error message: at most this many characters. */
  public static final int QUOTE_MAX = 64;

  /**
   * One setting. Values are {@link String}, {@link Integer}, {@link Double}, {@link Boolean} or a
   * {@code List<String>} of IPv4 addresses.
   */
  public static final class Setting {
    private final String name;
    private final Type type;
    private final double min;
    private final boolean minExclusive;
    private final double max;
    private final Supplier<List<String>> choices;
    private final boolean changeableAtRunTime;
    private final boolean standaloneOnly;
    private final String meaning;
    private final Function<ControlConfig, Object> get;
    private final BiConsumer<Draft, Object> set;

    private Setting(
        String name,
        Type type,
        double min,
        boolean minExclusive,
        double max,
        Supplier<List<String>> choices,
        boolean changeableAtRunTime,
        boolean standaloneOnly,
        String meaning,
        Function<ControlConfig, Object> get,
        BiConsumer<Draft, Object> set) {
      this.name = name;
      this.type = type;
      this.min = min;
      this.minExclusive = minExclusive;
      this.max = max;
      this.choices = choices;
      this.changeableAtRunTime = changeableAtRunTime;
      this.standaloneOnly = standaloneOnly;
      this.meaning = meaning;
      this.get = get;
      this.set = set;
    }

    public String name() {
      return name;
    }

    public Type type() {
      return type;
    }

    /** What the setting does, one line. */
    public String meaning() {
      return meaning;
    }

    /** Whether REST may change it while the controller runs (else: at start only). */
    public boolean changeableAtRunTime() {
      return changeableAtRunTime;
    }

    /**
     * Whether only the standalone runtime uses it (Floodlight's own services do that job there, so
     * its module does not read it).
     */
    public boolean standaloneOnly() {
      return standaloneOnly;
    }

    /** This setting, read by the standalone runtime only. */
    private Setting forStandaloneOnly() {
      return new Setting(
          name,
          type,
          min,
          minExclusive,
          max,
          choices,
          changeableAtRunTime,
          true,
          meaning,
          get,
          set);
    }

    /** The names a {@link Type#CHOICE} accepts, read when asked (empty for other types). */
    public List<String> choices() {
      return choices == null ? List.of() : choices.get();
    }

    /** The accepted values in words: "0 to 1", "above 0, at most 60000", "ga, exact, ...". */
    public String range() {
      return switch (type) {
        case CHOICE -> String.join(", ", choices());
        case BOOLEAN -> "true, false";
        case IPV4_LIST -> "IPv4 addresses, comma-separated";
        case INTEGER, NUMBER ->
            (minExclusive ? "above " + number(min) + ", at most " : number(min) + " to ")
                + number(max);
      };
    }

    /** The value in {@code config}. */
    public Object value(ControlConfig config) {
      return get.apply(config);
    }

    /** The value in {@link ControlConfig#defaults()}. */
    public Object defaultValue() {
      return value(ControlConfig.defaults());
    }

    /**
     * A value as text: {@code 0.5}, {@code 300}, {@code true}, {@code ga}, {@code
     * 10.0.1.1,10.0.2.1}.
     */
    public String format(Object v) {
      if (v instanceof List<?> l) {
        return String.join(",", l.stream().map(String::valueOf).toList());
      }
      return v instanceof Double d ? number(d) : String.valueOf(v);
    }

    /** The default as help and tables show it ({@code none} for an empty list). */
    public String defaultText() {
      String d = format(defaultValue());
      return d.isEmpty() ? "none" : d;
    }

    /**
     * A value from text (properties, command line), checked.
     *
     * @throws IllegalArgumentException naming the setting, the expected values and (abbreviated)
     *     the text
     */
    public Object parse(String text) {
      String t = text == null ? "" : text.trim();
      return switch (type) {
        case CHOICE -> check(t);
        case BOOLEAN -> bool(name, t);
        case IPV4_LIST ->
            check(
                t.isEmpty()
                    ? List.of()
                    : Arrays.stream(t.split(",", -1)).map(String::trim).toList());
        case INTEGER -> {
          try {
            yield check(Integer.parseInt(t));
          } catch (IllegalArgumentException e) {
            throw refused(t);
          }
        }
        case NUMBER -> {
          try {
            yield check(Double.parseDouble(t));
          } catch (IllegalArgumentException e) {
            throw refused(t);
          }
        }
      };
    }

    /**
     * A value from JSON (REST), checked: a string for a choice, an integer for an integer, a number
     * for a number, true or false for a boolean.
     */
    public Object fromJson(JsonNode v) {
      return switch (type) {
        case CHOICE -> {
          if (!v.isTextual()) {
            throw refused(v.toString());
          }
          yield check(v.asText());
        }
        case BOOLEAN -> {
          if (!v.isBoolean()) {
            throw refused(v.toString());
          }
          yield v.asBoolean();
        }
        case IPV4_LIST -> {
          if (!v.isArray()) {
            throw refused(v.toString());
          }
          List<Object> ips = new ArrayList<>();
          for (JsonNode ip : v) {
            if (!ip.isTextual()) {
              throw refused(ip.toString());
            }
            ips.add(ip.asText());
          }
          yield check(ips);
        }
        case INTEGER -> {
          if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw refused(v.toString());
          }
          yield check(v.asInt());
        }
        case NUMBER -> {
          if (!v.isNumber()) {
            throw refused(v.toString());
          }
          yield check(v.asDouble());
        }
      };
    }

    /** A typed value, checked against type and range; returns it (Integer, Double, ...). */
    public Object check(Object v) {
      switch (type) {
        case CHOICE -> {
          if (v instanceof String s && choices().contains(s)) {
            return s;
          }
        }
        case BOOLEAN -> {
          if (v instanceof Boolean) {
            return v;
          }
        }
        case IPV4_LIST -> {
          if (v instanceof List<?> l) {
            List<String> ips = new ArrayList<>();
            for (Object ip : l) {
              try {
                ips.add(Addresses.formatIpv4(Addresses.parseIpv4((String) ip)));
              } catch (ClassCastException | IllegalArgumentException | NullPointerException e) {
                throw refused(String.valueOf(ip));
              }
            }
            return List.copyOf(ips);
          }
        }
        case INTEGER -> {
          if (v instanceof Integer i && i >= min && i <= max) {
            return i;
          }
        }
        case NUMBER -> {
          if (v instanceof Number n) {
            double d = n.doubleValue();
            if (Double.isFinite(d) && (minExclusive ? d > min : d >= min) && d <= max) {
              return d;
            }
          }
        }
      }
      throw refused(v instanceof Double d && Double.isFinite(d) ? number(d) : String.valueOf(v));
    }

    private IllegalArgumentException refused(String got) {
      String expected =
          switch (type) {
            case CHOICE -> "one of " + range();
            case BOOLEAN -> "true or false";
            case IPV4_LIST -> "IPv4 addresses, comma-separated";
            case INTEGER -> "an integer, " + range();
            case NUMBER -> "a finite number, " + range();
          };
      return new IllegalArgumentException(
          "'" + name + "' must be " + expected + ", got " + quote(got));
    }
  }

  /**
   * The configurable fields of a {@link ControlConfig}, set one by one and built into records once,
   * so that a combination is judged whole (alpha 0 with beta 1 is fine in either order).
   */
  private static final class Draft {
    String algorithm;
    double alpha;
    double beta;
    double thrDelayMs;
    double thrCong;
    int maxHops;
    int idleTimeoutS;
    int statsIntervalS;
    boolean segmentRouting;
    String selectAt;
    int qomraK;
    double qomraIntervalS;
    Resolution qomraResolution;
    double[] qomraWeights = new double[4];
    List<String> servers;
    TopologyBuilder.Grouping hostGrouping;
    double defaultLinkCapacityMbps;
    int lldpIntervalS;
    boolean lldpIntervalGiven;
    int linkTimeoutS;
    boolean linkTimeoutGiven;

    Draft(ControlConfig c) {
      SelectionConfig s = c.selection();
      QomraConfig q = c.qomra();
      algorithm = c.algorithm();
      alpha = s.alpha();
      beta = s.beta();
      thrDelayMs = s.thrDelayMs();
      thrCong = s.thrCong();
      maxHops = c.maxHops();
      idleTimeoutS = c.idleTimeoutS();
      statsIntervalS = c.statsIntervalS();
      segmentRouting = c.segmentRouting();
      selectAt = c.selectAt();
      qomraK = q.k();
      qomraIntervalS = q.intervalS();
      qomraResolution = q.resolution();
      qomraWeights =
          new double[] {
            q.delayWeight(), q.lossWeight(), q.criticalityWeight(), q.congestionWeight()
          };
      DiscoveryConfig n = c.discovery();
      servers = n.servers();
      hostGrouping = n.hostGrouping();
      defaultLinkCapacityMbps = n.defaultLinkCapacityMbps();
      lldpIntervalS = n.lldpIntervalS();
      linkTimeoutS = n.linkTimeoutS();
    }

    ControlConfig build(ControlConfig base) {
      double[] w = qomraWeights;
      return base.withAlgorithm(algorithm)
          .withSelection(
              base.selection().withWeights(alpha, beta).withThresholds(thrDelayMs, thrCong))
          .withTimers(idleTimeoutS, statsIntervalS)
          .withRouting(maxHops, segmentRouting)
          .withSelectAt(selectAt)
          .withQomra(
              new QomraConfig(qomraK, qomraIntervalS, qomraResolution, w[0], w[1], w[2], w[3]))
          .withDiscovery(
              new DiscoveryConfig(
                  servers,
                  hostGrouping,
                  defaultLinkCapacityMbps,
                  lldpIntervalS,
                  lldpIntervalGiven && !linkTimeoutGiven
                      ? DiscoveryConfig.defaultLinkTimeoutS(lldpIntervalS)
                      : linkTimeoutS));
    }
  }

  private static Setting choice(
      String name,
      Supplier<List<String>> choices,
      String meaning,
      Function<ControlConfig, Object> get,
      BiConsumer<Draft, Object> set) {
    return new Setting(name, Type.CHOICE, 0, false, 0, choices, true, false, meaning, get, set);
  }

  private static Setting number(
      String name,
      double min,
      boolean minExclusive,
      double max,
      String meaning,
      Function<ControlConfig, Object> get,
      BiConsumer<Draft, Object> set) {
    return new Setting(
        name, Type.NUMBER, min, minExclusive, max, null, true, false, meaning, get, set);
  }

  private static Setting integer(
      String name,
      int min,
      int max,
      boolean runTime,
      String meaning,
      Function<ControlConfig, Object> get,
      BiConsumer<Draft, Object> set) {
    return new Setting(
        name, Type.INTEGER, min, false, max, null, runTime, false, meaning, get, set);
  }

  private static Setting weight(String name, int index, String what) {
    return number(
        name,
        0,
        false,
        1000,
        "QoMRA: weight of " + what + " in the link cost (docs/algorithms.md)",
        c -> {
          QomraConfig q = c.qomra();
          return new double[] {
                q.delayWeight(), q.lossWeight(), q.criticalityWeight(), q.congestionWeight()
              }
              [index];
        },
        (d, v) -> d.qomraWeights[index] = (Double) v);
  }

  /** Every setting, in the order tables and messages list them. */
  public static final List<Setting> ALL =
      List.of(
          choice(
              "algorithm",
              () -> Selectors.NAMES,
              "path selection algorithm (docs/algorithms.md)",
              ControlConfig::algorithm,
              (d, v) -> d.algorithm = (String) v),
          number(
              "alpha",
              0,
              false,
              1,
              "objective weight of the delay-difference term zeta (eq. 7)",
              c -> c.selection().alpha(),
              (d, v) -> d.alpha = (Double) v),
          number(
              "beta",
              0,
              false,
              1,
              "objective weight of the bandwidth term xi (eq. 7); alpha and beta not both 0",
              c -> c.selection().beta(),
              (d, v) -> d.beta = (Double) v),
          number(
              "thrDelayMs",
              0,
              true,
              60000,
              "paths with a larger delay (ms) are not candidates (eq. 4)",
              c -> c.selection().thrDelayMs(),
              (d, v) -> d.thrDelayMs = (Double) v),
          number(
              "thrCong",
              0,
              false,
              10,
              "a link shared by two chosen paths may not be more congested (load / capacity)"
                  + " than this (eq. 3)",
              c -> c.selection().thrCong(),
              (d, v) -> d.thrCong = (Double) v),
          integer(
              "maxHops",
              1,
              64,
              false,
              "longest candidate path, in hops",
              ControlConfig::maxHops,
              (d, v) -> d.maxHops = (Integer) v),
          integer(
              "idleTimeoutS",
              1,
              65535,
              false,
              "idle timeout of subflow rules (s); their expiry ends the subflow",
              ControlConfig::idleTimeoutS,
              (d, v) -> d.idleTimeoutS = (Integer) v),
          integer(
              "statsIntervalS",
              1,
              3600,
              false,
              "port statistics period (s)",
              ControlConfig::statsIntervalS,
              (d, v) -> d.statsIntervalS = (Integer) v),
          new Setting(
              "segmentRouting",
              Type.BOOLEAN,
              0,
              false,
              0,
              null,
              false,
              false,
              "install subflows as MPLS label stacks at the ingress instead of per-hop rules (no path"
                  + " deeper than the 3 labels Open vSwitch can push)",
              ControlConfig::segmentRouting,
              (d, v) -> d.segmentRouting = (Boolean) v),
          choice(
              "selectAt",
              () -> ControlConfig.SELECT_AT,
              "when a client's paths are selected: at its MP_CAPABLE SYN (syn, as the GA paper), or"
                  + " at the first packet-in between it and a server, an ARP request or any IPv4"
                  + " packet (first-packet), so that its SYN finds them ready; an early selection"
                  + " no connection used is dropped after idleTimeoutS",
              ControlConfig::selectAt,
              (d, v) -> d.selectAt = (String) v),
          integer(
              "qomraK",
              1,
              QomraConfig.MAX_K,
              true,
              "QoMRA: shortest paths per flow and per demand",
              c -> c.qomra().k(),
              (d, v) -> d.qomraK = (Integer) v),
          number(
              "qomraIntervalS",
              0,
              true,
              86400,
              "QoMRA: link criticality is recomputed after this interval t (s)",
              c -> c.qomra().intervalS(),
              (d, v) -> d.qomraIntervalS = (Double) v),
          choice(
              "qomraResolution",
              () -> Arrays.stream(Resolution.values()).map(Resolution::label).toList(),
              "QoMRA: requested resolution, b_r per subflow (1080p 5, 720p 2.5, 480p 1.0, 360p"
                  + " 0.725, 240p 0.325 Mbit/s)",
              c -> c.qomra().resolution().label(),
              (d, v) -> d.qomraResolution = Resolution.parse((String) v)),
          weight("qomraDelayWeight", 0, "link delay"),
          weight("qomraLossWeight", 1, "link loss"),
          weight("qomraCriticalityWeight", 2, "link criticality"),
          weight("qomraCongestionWeight", 3, "the congestion index"),
          new Setting(
              "servers",
              Type.IPV4_LIST,
              0,
              false,
              0,
              null,
              false,
              false,
              "the servers' addresses; every other host seen is a client (required without a"
                  + " topology descriptor)",
              c -> c.discovery().servers(),
              (d, v) -> d.servers = ips(v)),
          new Setting(
              "hostGrouping",
              Type.CHOICE,
              0,
              false,
              0,
              () ->
                  Arrays.stream(TopologyBuilder.Grouping.values())
                      .map(TopologyBuilder.Grouping::label)
                      .toList(),
              false,
              false,
              "without a descriptor, how addresses become hosts: address-plan (interface i of host"
                  + " K is x.y.i.K, topologies/README.md) or per-address (one host each)",
              c -> c.discovery().hostGrouping().label(),
              (d, v) -> d.hostGrouping = TopologyBuilder.Grouping.parse((String) v)),
          new Setting(
              "defaultLinkCapacityMbps",
              Type.NUMBER,
              0,
              true,
              1_000_000,
              null,
              false,
              false,
              "without a descriptor, the capacity (Mbit/s) of a link whose ports report no speed",
              c -> c.discovery().defaultLinkCapacityMbps(),
              (d, v) -> d.defaultLinkCapacityMbps = (Double) v),
          integer(
                  "lldpIntervalS",
                  1,
                  60,
                  false,
                  "LLDP probe period (s); standalone runtime only (Floodlight's link discovery has"
                      + " its own)",
                  c -> c.discovery().lldpIntervalS(),
                  (d, v) -> {
                    d.lldpIntervalS = (Integer) v;
                    d.lldpIntervalGiven = true;
                  })
              .forStandaloneOnly(),
          integer(
                  "linkTimeoutS",
                  2,
                  3600,
                  false,
                  "a discovered link not seen again for this long (s) is removed; longer than"
                      + " lldpIntervalS, three of them unless given; standalone runtime only",
                  c -> c.discovery().linkTimeoutS(),
                  (d, v) -> {
                    d.linkTimeoutS = (Integer) v;
                    d.linkTimeoutGiven = true;
                  })
              .forStandaloneOnly());

  @SuppressWarnings("unchecked")
  private static List<String> ips(Object v) {
    return (List<String>) v;
  }

  private SettingsSchema() {}

  /** The setting called {@code name}. */
  public static Optional<Setting> named(String name) {
    return ALL.stream().filter(s -> s.name.equals(name)).findFirst();
  }

  /**
   * A boolean from text as every setting reads one: true/yes or false/no, any case.
   *
   * @param name the setting or parameter, for the message
   */
  public static boolean bool(String name, String text) {
    String t = text == null ? "" : text.trim();
    return switch (t.toLowerCase(Locale.ROOT)) {
      case "true", "yes" -> true;
      case "false", "no" -> false;
      default ->
          throw new IllegalArgumentException(
              "'" + name + "' must be true or false, got " + quote(t));
    };
  }

  /** Every setting's name, comma-separated, for messages. */
  public static String names() {
    return String.join(", ", ALL.stream().map(Setting::name).toList());
  }

  /**
   * {@code base} with the given (checked) values; the combination is judged once, whole.
   *
   * @throws IllegalArgumentException with the core's reason when the combination is invalid
   */
  public static ControlConfig apply(ControlConfig base, Map<Setting, Object> values) {
    Draft d = new Draft(base);
    values.forEach((s, v) -> s.set.accept(d, s.check(v)));
    return d.build(base);
  }

  /**
   * {@code base} with values given as text (properties, command line); blank values keep the
   * base's.
   *
   * @throws IllegalArgumentException for an unknown name (listing the known ones), a refused value
   *     or an invalid combination
   */
  public static ControlConfig parse(ControlConfig base, Map<String, String> text) {
    Map<Setting, Object> values = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : new TreeMap<>(text).entrySet()) {
      Setting s =
          named(e.getKey())
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "unknown setting " + quote(e.getKey()) + " (known: " + names() + ")"));
      if (e.getValue() != null && !e.getValue().isBlank()) {
        values.put(s, s.parse(e.getValue()));
      }
    }
    return apply(base, values);
  }

  /** Every setting's value in {@code config}, in schema order, typed. */
  public static Map<String, Object> values(ControlConfig config) {
    Map<String, Object> out = new LinkedHashMap<>();
    ALL.forEach(s -> out.put(s.name, s.value(config)));
    return out;
  }

  /**
   * The Markdown rows of the settings table in docs/floodlight.md: name, default, range, meaning
   * (the header is the caller's).
   */
  public static List<String> markdownRows() {
    List<String> rows = new ArrayList<>();
    for (Setting s : ALL) {
      rows.add(
          "| `"
              + s.name
              + "` | "
              + s.defaultText()
              + " | "
              + s.range()
              + " | "
              + s.meaning
              + (s.changeableAtRunTime ? "" : " (at start only)")
              + " |");
    }
    return rows;
  }

  /**
   * {@code 'text'} with at most {@link #QUOTE_MAX} characters of it, so bad input is not echoed.
   */
  public static String quote(String text) {
    if (text.length() <= QUOTE_MAX) {
      return "'" + text + "'";
    }
    return "'" + text.substring(0, QUOTE_MAX) + "...' (" + text.length() + " characters)";
  }

  /** 0.5, 300, 1e-05 -> "0.5", "300", "0.00001": no trailing ".0", no exponent. */
  static String number(double d) {
    return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }
}

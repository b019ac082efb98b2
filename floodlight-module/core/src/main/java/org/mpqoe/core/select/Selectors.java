package org.mpqoe.core.select;

import java.util.List;

/** The selectors by their CLI/REST names. */
public final class Selectors {
  /** Every algorithm name, in the order tables list them. */
  public static final List<String> NAMES =
      List.of("ga", "exact", "pd-bw", "pd-delay", "fd-bw", "fd-delay", "none");

  private Selectors() {}

  /** The selector called {@code name}; the GA uses {@code ga}. */
  public static PathSelector create(String name, GaConfig ga) {
    return switch (name) {
      case "ga" -> new GeneticSelector(ga);
      case "exact" -> new ExactSelector();
      case "pd-bw" -> new PartiallyDisjointBandwidthSelector();
      case "pd-delay" -> new PartiallyDisjointDelaySelector();
      case "fd-bw" -> new FullyDisjointBandwidthSelector();
      case "fd-delay" -> new FullyDisjointDelaySelector();
      case "none" -> new ShortestPathSelector();
      default ->
          throw new IllegalArgumentException(
              "unknown algorithm '" + name + "' (known: " + String.join(", ", NAMES) + ")");
    };
  }
}

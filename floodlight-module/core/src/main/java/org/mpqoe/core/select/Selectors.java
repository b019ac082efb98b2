package org.mpqoe.core.select;

import java.util.List;

/** The selectors by their CLI/REST names. */
public final class Selectors {
  /** Every algorithm name, in the order tables list them. */
  public static final List<String> NAMES =
      List.of("ga", "ga-tuned", "exact", "qomra", "pd-bw", "pd-delay", "fd-bw", "fd-delay", "none");

  private Selectors() {}

  /** The selector called {@code name}; both GA variants use {@code ga}, QoMRA its defaults. */
  public static PathSelector create(String name, GaConfig ga) {
    return create(name, ga, QomraConfig.DEFAULTS, null);
  }

  /**
   * The selector called {@code name}. QoMRA uses {@code qomra} and keeps its books in {@code
   * context} (null: fresh books, no loss values, no labels).
   */
  public static PathSelector create(
      String name, GaConfig ga, QomraConfig qomra, QomraSelector.Context context) {
    return switch (name) {
      case "ga" -> new GeneticSelector(ga, GeneticSelector.Variant.ALGORITHM_1);
      case "ga-tuned" -> new GeneticSelector(ga, GeneticSelector.Variant.TUNED);
      case "exact" -> new ExactSelector();
      case "qomra" ->
          new QomraSelector(qomra, context == null ? QomraSelector.Context.fresh() : context);
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

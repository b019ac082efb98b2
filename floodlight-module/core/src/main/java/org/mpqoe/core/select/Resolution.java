package org.mpqoe.core.select;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A requested video resolution and the TCP throughput it needs, b_r of QoMRA's admission test
 * (Barakabitze et al., ICC 2018, Table I: the required TCP throughput per resolution).
 */
public enum Resolution {
  P1080("1080p", 5.0),
  P720("720p", 2.5),
  P480("480p", 1.0),
  P360("360p", 0.725),
  P240("240p", 0.325);

  private final String label;
  private final double rateMbps;

  Resolution(String label, double rateMbps) {
    this.label = label;
    this.rateMbps = rateMbps;
  }

  /** The name used on the command line, in REST and in properties, e.g. {@code 480p}. */
  public String label() {
    return label;
  }

  /** b_r: the throughput one subflow of this resolution needs, Mbit/s. */
  public double rateMbps() {
    return rateMbps;
  }

  /**
   * The resolution called {@code text} ({@code 1080p}, {@code 720p}, ...; case-insensitive).
   *
   * @throws IllegalArgumentException naming the known resolutions
   */
  public static Resolution parse(String text) {
    String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    for (Resolution r : values()) {
      if (r.label.equals(t)) {
        return r;
      }
    }
    throw new IllegalArgumentException(
        "unknown resolution '"
            + text
            + "' (known: "
            + Arrays.stream(values()).map(Resolution::label).collect(Collectors.joining(", "))
            + ")");
  }

  @Override
  public String toString() {
    return label;
  }
}

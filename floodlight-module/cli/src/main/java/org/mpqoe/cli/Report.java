package org.mpqoe.cli;

import java.util.Locale;
import org.mpqoe.core.scenario.Scenario;

/** Small formatting helpers shared by the commands. */
final class Report {
  private Report() {}

  /** The realised link bandwidth moments beside the paper's. */
  static String linkLine(Scenario s) {
    if (s.target() == null) {
      return String.format(
          Locale.ROOT,
          "link bandwidth from the descriptor: mean %.2f, std %.2f Mbit/s",
          s.realised().mean(),
          s.realised().std());
    }
    return String.format(
        Locale.ROOT,
        "link bandwidth drawn: mean %.2f, std %.2f Mbit/s (paper: %.2f, %.2f)",
        s.realised().mean(),
        s.realised().std(),
        s.target().mean(),
        s.target().std());
  }

  /** Infinity (a link-less path) shown as -1 so that JSON stays valid. */
  static double finite(double v) {
    return Double.isFinite(v) ? v : -1;
  }
}

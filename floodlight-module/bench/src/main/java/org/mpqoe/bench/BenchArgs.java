package org.mpqoe.bench;

import java.util.List;

/**
 * Command-line values of the plain-{@code main} benchmarks: a bad value is an {@link
 * IllegalArgumentException} naming it, which {@link #fail} turns into a message and exit code 2, as
 * it does an unknown topology.
 */
final class BenchArgs {
  /** The topologies every per-join benchmark covers by default (the GA paper's three). */
  static final List<String> TOPOLOGIES = List.of("custom12", "compuserve", "jellyfish20");

  private BenchArgs() {}

  /** {@code text} as an integer of at least 1. */
  static int positive(String text, String what) {
    return atLeast(text, what, 1);
  }

  /** {@code text} as an integer of at least {@code min}. */
  static int atLeast(String text, String what, int min) {
    int v;
    try {
      v = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " must be a whole number, not '" + text + "'", e);
    }
    if (v < min) {
      throw new IllegalArgumentException(what + " must be at least " + min + ", not " + v);
    }
    return v;
  }

  /** Prints {@code usage} and the error (a bad value or topology) on stderr, exits with 2. */
  static void fail(String usage, RuntimeException e) {
    System.err.println(e.getMessage());
    System.err.println("usage: " + usage);
    System.exit(2);
  }
}

package org.mpqoe.core.select;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.mpqoe.core.path.Path;

/**
 * QoMRA's link criticality: c(l) = sum over the recorded traffic demands (s, d) of P_sd(l) / k,
 * where P_sd(l) is how many of the first k shortest paths of (s, d) use link l. A link that many
 * demands would need scores high; new subflows are steered away from it before it fills up.
 * Immutable; one snapshot per interval t.
 *
 * <p>When a demand has fewer than k paths, its paths still count 1/k each, as the formula says: a
 * demand with a single path gives each of its links 1/k, not 1.
 */
public final class LinkCriticality {
  private final double[] values;
  private final double max;

  private LinkCriticality(double[] values) {
    this.values = values;
    this.max = Arrays.stream(values).max().orElse(0);
  }

  /** No demand recorded: every link 0. */
  public static LinkCriticality none(int links) {
    return new LinkCriticality(new double[links]);
  }

  /**
   * @param links number of links (indices 0..links-1)
   * @param demands per recorded demand, its shortest paths, shortest first (only the first k count)
   * @param k the k of the definition
   */
  public static LinkCriticality of(int links, Collection<List<Path>> demands, int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1");
    }
    double[] c = new double[links];
    for (List<Path> paths : demands) {
      int n = Math.min(k, paths.size());
      for (int i = 0; i < n; i++) {
        for (int l : paths.get(i).links()) {
          if (l < links) {
            c[l] += 1.0 / k;
          }
        }
      }
    }
    return new LinkCriticality(c);
  }

  /** c(l). */
  public double of(int link) {
    return link < values.length ? values[link] : 0;
  }

  /** c(l) / max c, in [0, 1]; 0 when no link is critical. */
  public double normalised(int link) {
    return max > 0 ? of(link) / max : 0;
  }

  public int size() {
    return values.length;
  }

  /** A copy of every c(l). */
  public double[] values() {
    return values.clone();
  }
}

package org.mpqoe.core.select;

/**
 * The objective's value for one path set.
 *
 * @param zeta sum of pairwise delay differences, ms (eq. 8)
 * @param xi sum of available-bandwidth shares, Mbit/s (eq. 9)
 * @param fitness normalised weighted objective (eq. 7), 0 when infeasible
 * @param feasible false when two paths share a link congested above thr_cong (eq. 3)
 */
public record Score(double zeta, double xi, double fitness, boolean feasible) {
  /** The score of no paths at all. */
  public static final Score EMPTY = new Score(0, 0, 0, true);
}

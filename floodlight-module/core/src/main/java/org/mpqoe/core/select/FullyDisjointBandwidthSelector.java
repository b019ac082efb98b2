package org.mpqoe.core.select;

/**
 * Fully disjoint paths by available bandwidth ({@code fd-bw}), after Gao et al., multipath
 * transmission of MPTCP subflows over link-disjoint paths in SDN.
 *
 * <p>Rule: drop the admissible candidates whose delay is above the average delay of all admissible
 * candidates; order the rest by available bandwidth, largest first (ties: lower delay, then lower
 * candidate index), and greedily accept each path that is link-disjoint from every path accepted so
 * far, up to N paths: the walk of {@code pd-bw} with no link reusable ({@link DisjointGreedy}).
 */
public final class FullyDisjointBandwidthSelector implements PathSelector {
  /** Relative slack on the average: rounding must not drop a path of exactly average delay. */
  private static final double EPSILON = 1e-9;

  public FullyDisjointBandwidthSelector() {}

  @Override
  public String name() {
    return "fd-bw";
  }

  @Override
  public Selection select(SelectionProblem problem) {
    int c = problem.size();
    if (c == 0) {
      return Selection.none(name(), problem.client());
    }
    double sum = 0;
    for (int i = 0; i < c; i++) {
      sum += problem.delayMs(i);
    }
    double average = sum / c;
    double limit = average + EPSILON * Math.max(1.0, Math.abs(average));
    int[] chosen =
        DisjointGreedy.greedy(
            problem,
            i -> problem.delayMs(i) <= limit,
            DisjointGreedy.widestFirst(problem),
            DisjointGreedy.NO_SHARED_LINK);
    return problem.selectionOf(name(), chosen);
  }
}

package org.mpqoe.core.select;

/**
 * Partially disjoint paths by delay ({@code pd-delay}), after Barakabitze et al., QoE-aware
 * multipath routing of MPTCP subflows in SDN.
 *
 * <p>Rule: order the admissible candidates by end-to-end delay, smallest first (ties: larger
 * available bandwidth, then lower candidate index), and take the first. Walk the others in that
 * order and accept a path when it is not identical to an accepted one and every link it shares with
 * an accepted path has a latency below {@link SelectionConfig#pdDelayReuseMs()}; a path sharing no
 * link is always accepted. Stop after N paths.
 */
public final class PartiallyDisjointDelaySelector implements PathSelector {
  public PartiallyDisjointDelaySelector() {}

  @Override
  public String name() {
    return "pd-delay";
  }

  @Override
  public Selection select(SelectionProblem problem) {
    if (problem.size() == 0) {
      return Selection.none(name(), problem.client());
    }
    int[] chosen =
        DisjointGreedy.greedy(
            problem,
            i -> true,
            DisjointGreedy.fastestFirst(problem),
            link -> problem.state().delayMs(link) < problem.config().pdDelayReuseMs());
    return problem.selectionOf(name(), chosen);
  }
}

package org.mpqoe.core.select;

/**
 * Partially disjoint paths by available bandwidth ({@code pd-bw}), after Jiang et al., scMPTCP: SDN
 * cooperated multipath transfer for user-perceived QoE.
 *
 * <p>Rule: order the admissible candidates by available bandwidth, largest first (ties: lower
 * delay, then lower candidate index), and take the first. Walk the others in that order and accept
 * a path when it is not identical to an accepted one and every link it shares with an accepted path
 * has more than {@link SelectionConfig#pdBwReuseMbps()} available; a path sharing no link is always
 * accepted. Stop after N paths.
 */
public final class PartiallyDisjointBandwidthSelector implements PathSelector {
  public PartiallyDisjointBandwidthSelector() {}

  @Override
  public String name() {
    return "pd-bw";
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
            DisjointGreedy.widestFirst(problem),
            link -> problem.state().availableMbps(link) > problem.config().pdBwReuseMbps());
    return problem.selectionOf(name(), chosen);
  }
}

package org.mpqoe.core.select;

import java.util.Collections;
import java.util.List;
import org.mpqoe.core.path.Path;

/**
 * Plain forwarding ({@code none}): what the network does without path selection, the reference
 * every QoE-driven selector is compared with.
 *
 * <p>Rule: every one of the N subflows follows the shortest path by hop count, the first of {@link
 * SelectionProblem#allCandidates()} (shortest first, ties by link indices); thr_delay is not
 * applied, as a plain forwarding plane does not know it. No path at all gives an empty selection.
 */
public final class ShortestPathSelector implements PathSelector {
  public ShortestPathSelector() {}

  @Override
  public String name() {
    return "none";
  }

  @Override
  public Selection select(SelectionProblem problem) {
    if (problem.allCandidates().isEmpty()) {
      return Selection.none(name(), problem.client());
    }
    Path p = problem.allCandidates().get(0);
    return new Selection(
        name(),
        problem.client(),
        Collections.nCopies(problem.maxPaths(), p),
        problem.scoreOf(List.of(p)));
  }
}

package org.mpqoe.core.select;

import java.util.ArrayList;
import java.util.List;
import org.mpqoe.core.path.Path;

/**
 * Plain forwarding ({@code none}): what the network does without path selection, the reference
 * every QoE-driven selector is compared with.
 *
 * <p>Rule: every one of the N subflows follows the shortest path by hop count, the first of {@link
 * SelectionProblem#allCandidates()} (shortest first, ties by link indices); thr_delay is not
 * applied, as a plain forwarding plane does not know it. No path at all gives an empty selection.
 * With interfaces on several switches, each interface's subflow follows the shortest path from its
 * own switch (none when its switch cannot reach the server).
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
    List<Path> paths = new ArrayList<>();
    List<Integer> interfaces = new ArrayList<>();
    for (int i = 0; i < problem.maxPaths(); i++) {
      for (Path p : problem.allCandidates()) {
        if (problem.startsAtInterface(p, i)) {
          paths.add(p);
          interfaces.add(i);
          break;
        }
      }
    }
    return new Selection(name(), problem.client(), paths, interfaces, problem.scoreOf(paths));
  }
}

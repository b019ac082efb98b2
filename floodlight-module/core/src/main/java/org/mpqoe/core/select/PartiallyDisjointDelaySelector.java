package org.mpqoe.core.select;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;

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
    int[] order =
        IntStream.range(0, problem.size())
            .boxed()
            .sorted(
                Comparator.<Integer>comparingDouble(problem::delayMs)
                    .thenComparingDouble(i -> -problem.availableMbps(i))
                    .thenComparingInt(i -> i))
            .mapToInt(Integer::intValue)
            .toArray();
    LinkState state = problem.state();
    double reuse = problem.config().pdDelayReuseMs();
    List<Integer> accepted = new ArrayList<>();
    for (int c : order) {
      if (accepted.size() >= problem.maxPaths()) {
        break;
      }
      Path p = problem.candidates().get(c);
      boolean ok = true;
      for (int a : accepted) {
        Path q = problem.candidates().get(a);
        if (p.equals(q)) {
          ok = false;
          break;
        }
        for (int link : p.sharedLinks(q)) {
          if (!(state.delayMs(link) < reuse)) {
            ok = false;
            break;
          }
        }
        if (!ok) {
          break;
        }
      }
      if (ok) {
        accepted.add(c);
      }
    }
    return problem.selectionOf(name(), accepted.stream().mapToInt(Integer::intValue).toArray());
  }
}

package org.mpqoe.core.select;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.mpqoe.core.path.Path;

/**
 * The greedy walk both partially disjoint baselines share: candidates in a selector's order, the
 * first taken, each later one accepted when it is not an accepted path again and every link it
 * shares with an accepted path passes the selector's reuse test; at most N paths.
 */
final class PartiallyDisjoint {
  private PartiallyDisjoint() {}

  static int[] greedy(
      SelectionProblem problem, Comparator<Integer> order, IntPredicate reusableLink) {
    List<Integer> accepted = new ArrayList<>();
    for (int c : IntStream.range(0, problem.size()).boxed().sorted(order).toList()) {
      if (accepted.size() >= problem.maxPaths()) {
        break;
      }
      if (compatible(problem, c, accepted, reusableLink)) {
        accepted.add(c);
      }
    }
    return accepted.stream().mapToInt(Integer::intValue).toArray();
  }

  private static boolean compatible(
      SelectionProblem problem, int c, List<Integer> accepted, IntPredicate reusableLink) {
    Path p = problem.candidates().get(c);
    for (int a : accepted) {
      Path q = problem.candidates().get(a);
      if (p.equals(q)) {
        return false;
      }
      for (int link : p.sharedLinks(q)) {
        if (!reusableLink.test(link)) {
          return false;
        }
      }
    }
    return true;
  }
}

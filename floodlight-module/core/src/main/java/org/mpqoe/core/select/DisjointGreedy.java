package org.mpqoe.core.select;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.mpqoe.core.path.Path;

/**
 * The greedy walk the partially and fully disjoint baselines share: the eligible candidates in a
 * selector's order, the first taken, each later one accepted when it is not an accepted path again
 * and every link it shares with an accepted path passes the selector's reuse test, and its first
 * switch has an interface of the client without a path yet (eq. 5 per switch); at most N paths. A
 * reuse test that accepts no link ({@code fd-bw}) gives pairwise link-disjoint paths.
 */
final class DisjointGreedy {
  /** No link may be shared: fully disjoint paths. */
  static final IntPredicate NO_SHARED_LINK = link -> false;

  private DisjointGreedy() {}

  /** Largest available bandwidth first; ties: lower delay, then lower candidate index. */
  static Comparator<Integer> widestFirst(SelectionProblem problem) {
    return Comparator.<Integer>comparingDouble(i -> -problem.availableMbps(i))
        .thenComparingDouble(problem::delayMs)
        .thenComparingInt(i -> i);
  }

  /** Lowest delay first; ties: larger available bandwidth, then lower candidate index. */
  static Comparator<Integer> fastestFirst(SelectionProblem problem) {
    return Comparator.<Integer>comparingDouble(problem::delayMs)
        .thenComparingDouble(i -> -problem.availableMbps(i))
        .thenComparingInt(i -> i);
  }

  /**
   * The accepted candidate indices, in acceptance order.
   *
   * @param eligible which candidates take part at all
   * @param order the order in which they are offered
   * @param reusableLink whether a link of an accepted path may be used again
   */
  static int[] greedy(
      SelectionProblem problem,
      IntPredicate eligible,
      Comparator<Integer> order,
      IntPredicate reusableLink) {
    List<Integer> accepted = new ArrayList<>();
    for (int c :
        IntStream.range(0, problem.size()).filter(eligible).boxed().sorted(order).toList()) {
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
    int[] taken = accepted.stream().mapToInt(Integer::intValue).toArray();
    if (!problem.slotFree(c, taken, taken.length)) {
      return false;
    }
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

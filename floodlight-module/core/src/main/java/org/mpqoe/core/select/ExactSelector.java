package org.mpqoe.core.select;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The exact optimum of the per-join problem, to validate the GA: a depth-first enumeration of every
 * set of 1..N distinct admissible candidates, with two prunings that never cut off an optimum.
 *
 * <ul>
 *   <li>Feasibility: a set with two paths that share a link congested above thr_cong has fitness 0,
 *       and so has every superset, so such a branch is not extended.
 *   <li>Bound: candidates are visited in descending share order; zeta never decreases as paths are
 *       added, so a branch can reach at most alpha * (1 - zeta/zeta_max) + beta * (xi + the largest
 *       remaining shares) / xi_max. When that is not better than the incumbent the branch, and
 *       every later sibling (their bound is no larger), is cut.
 *   <li>Slots: a path whose first switch has no free interface left (eq. 5 per switch, {@link
 *       SelectionProblem}) is not added; the bound, which ignores slots, stays an upper bound.
 * </ul>
 *
 * Ties are broken towards the set found first, so the result is deterministic.
 */
public final class ExactSelector implements PathSelector {
  private static final double EPS = 1e-12;

  @Override
  public String name() {
    return "exact";
  }

  @Override
  public Selection select(SelectionProblem problem) {
    int c = problem.size();
    if (c == 0) {
      return Selection.none(name(), problem.client());
    }
    Search s = new Search(problem);
    s.run();
    return problem.selectionOf(name(), Arrays.copyOf(s.best, s.bestSize));
  }

  /** Fitness of the optimum; for tests and the optimality-gap report. */
  public double optimum(SelectionProblem problem) {
    return select(problem).score().fitness();
  }

  private static final class Search {
    private final SelectionProblem p;
    private final int n;
    private final int[] order;
    private final double[] prefix;
    private final int[] chosen;
    private final int[] best;
    private int bestSize;
    private double bestFitness = -1;

    Search(SelectionProblem p) {
      this.p = p;
      int c = p.size();
      this.n = Math.min(p.maxPaths(), c);
      this.order =
          IntStream.range(0, c)
              .boxed()
              .sorted(Comparator.comparingDouble((Integer i) -> -p.share(i)).thenComparing(i -> i))
              .mapToInt(Integer::intValue)
              .toArray();
      this.prefix = new double[c + 1];
      for (int i = 0; i < c; i++) {
        prefix[i + 1] = prefix[i] + p.share(order[i]);
      }
      this.chosen = new int[n];
      this.best = new int[n];
    }

    void run() {
      dfs(0, 0, 0, 0);
    }

    private void dfs(int from, int k, double zeta, double xi) {
      if (k > 0) {
        double f = p.fitness(zeta, xi);
        if (f > bestFitness + EPS) {
          bestFitness = f;
          bestSize = k;
          System.arraycopy(chosen, 0, best, 0, k);
        }
      }
      if (k == n) {
        return;
      }
      int c = order.length;
      int room = n - k;
      for (int pos = from; pos < c; pos++) {
        double upper = p.fitness(zeta, xi + prefix[Math.min(c, pos + room)] - prefix[pos]);
        if (upper <= bestFitness + EPS) {
          return;
        }
        int j = order[pos];
        if (conflicts(j, k) || !p.slotFree(j, chosen, k)) {
          continue;
        }
        double dz = 0;
        for (int a = 0; a < k; a++) {
          dz += Math.abs(p.delayMs(j) - p.delayMs(chosen[a]));
        }
        chosen[k] = j;
        dfs(pos + 1, k + 1, zeta + dz, xi + p.share(j));
      }
    }

    private boolean conflicts(int j, int k) {
      for (int a = 0; a < k; a++) {
        if (p.conflict(j, chosen[a])) {
          return true;
        }
      }
      return false;
    }
  }
}

package org.mpqoe.core.select;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.jgrapht.Graph;
import org.jgrapht.alg.flow.EdmondsKarpMFImpl;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.WeightedMultigraph;
import org.mpqoe.core.path.Path;

/**
 * Fully disjoint paths by delay ({@code fd-delay}), after Alvizu et al., SDN-based multipath
 * routing with link-disjoint paths of similar delay for MPTCP.
 *
 * <p>Rule: among the admissible candidates whose delay is at most {@link
 * SelectionConfig#fdDelayBoundMs()}, choose a set of pairwise link-disjoint paths that (a) is as
 * large as possible, up to N paths, and among those (b) has the smallest end-to-end delay
 * difference (largest minus smallest delay in the set), then (c) the smallest sum of delays, then
 * (d) the lexicographically smallest sorted list of candidate indices. A set must fit the client's
 * slots: at most as many of its paths start at a switch as the client has interfaces there (eq. 5
 * per switch).
 *
 * <p>The search is exact: for each target size k, from the largest possible down, a depth-first
 * search over the candidates in delay order fixes the fastest path of the set and extends it with
 * slower disjoint paths only while their delay stays within the best spread found so far. A branch
 * is cut when its remaining compatible paths use fewer distinct first (or last) links than paths
 * still needed, since disjoint paths leave the source, and enter the destination, on distinct
 * links. The largest size tried is also bounded by a unit-capacity max flow over the candidates'
 * links (JGraphT), so a bottleneck inside the network does not make the search try sizes it cannot
 * reach.
 */
public final class FullyDisjointDelaySelector implements PathSelector {
  public FullyDisjointDelaySelector() {}

  @Override
  public String name() {
    return "fd-delay";
  }

  @Override
  public Selection select(SelectionProblem problem) {
    double bound = problem.config().fdDelayBoundMs();
    int[] eligible =
        IntStream.range(0, problem.size())
            .filter(i -> problem.delayMs(i) <= bound)
            .boxed()
            .sorted(Comparator.<Integer>comparingDouble(problem::delayMs).thenComparingInt(i -> i))
            .mapToInt(Integer::intValue)
            .toArray();
    if (eligible.length == 0) {
      return Selection.none(name(), problem.client());
    }
    Search search = new Search(problem, eligible);
    int[] all = IntStream.range(0, eligible.length).toArray();
    int top = Math.min(problem.maxPaths(), search.cutBound(all, all.length));
    top = Math.min(top, search.maxFlow(top));
    for (int k = top; k >= 1; k--) {
      int[] best = search.best(k);
      if (best != null) {
        return problem.selectionOf(name(), best);
      }
    }
    // Unreachable: any single eligible path is a set of size 1.
    return problem.selectionOf(name(), new int[] {eligible[0]});
  }

  /** The branch-and-bound search over one problem; positions index the delay-sorted candidates. */
  private static final class Search {
    private final SelectionProblem problem;
    private final int[] candidate;
    private final Path[] paths;
    private final double[] delay;
    private final BitSet[] links;
    private final int[] firstLink;
    private final int[] lastLink;
    private int target;
    private final int[] chosen;
    private int[] bestSet;
    private double bestSpread;
    private double bestSum;

    Search(SelectionProblem problem, int[] eligible) {
      int m = eligible.length;
      this.problem = problem;
      candidate = eligible;
      paths = new Path[m];
      delay = new double[m];
      links = new BitSet[m];
      firstLink = new int[m];
      lastLink = new int[m];
      for (int pos = 0; pos < m; pos++) {
        Path p = problem.candidates().get(eligible[pos]);
        paths[pos] = p;
        delay[pos] = problem.delayMs(eligible[pos]);
        links[pos] = new BitSet();
        int[] l = p.links();
        for (int link : l) {
          links[pos].set(link);
        }
        // A link-less path (client and server on one switch) blocks no other path.
        firstLink[pos] = l.length > 0 ? l[0] : -1 - pos;
        lastLink[pos] = l.length > 0 ? l[l.length - 1] : -1 - pos;
      }
      chosen = new int[Math.max(1, problem.maxPaths())];
    }

    /**
     * An upper bound on how many pairwise disjoint paths the first {@code n} positions of {@code
     * list} can give: the number of distinct first links, and of distinct last links.
     */
    int cutBound(int[] list, int n) {
      return Math.min(distinct(firstLink, list, n), distinct(lastLink, list, n));
    }

    /**
     * An upper bound on how many pairwise disjoint paths exist at all: the number of link-disjoint
     * source-destination paths in the graph made of every candidate's links (a unit-capacity max
     * flow over undirected links, JGraphT's Edmonds-Karp), at most {@code limit}. It cuts the
     * search short when a bottleneck in the middle of the network, not the source's or
     * destination's degree, limits the answer.
     */
    int maxFlow(int limit) {
      for (Path p : paths) {
        if (p.hops() == 0
            || p.source() != paths[0].source()
            || p.destination() != paths[0].destination()) {
          return limit;
        }
      }
      // Switches as vertices, each candidate link once as an edge of capacity 1; parallel links
      // between two switches are separate edges.
      Graph<Integer, DefaultWeightedEdge> links =
          new WeightedMultigraph<>(DefaultWeightedEdge.class);
      BitSet added = new BitSet();
      for (Path p : paths) {
        int[] sw = p.switches();
        int[] l = p.links();
        for (int i = 0; i < l.length; i++) {
          if (!added.get(l[i])) {
            added.set(l[i]);
            links.addVertex(sw[i]);
            links.addVertex(sw[i + 1]);
            links.setEdgeWeight(links.addEdge(sw[i], sw[i + 1]), 1.0);
          }
        }
      }
      double flow =
          new EdmondsKarpMFImpl<>(links)
              .getMaximumFlowValue(paths[0].source(), paths[0].destination());
      return (int) Math.min(limit, Math.round(flow));
    }

    private static int distinct(int[] key, int[] list, int n) {
      BitSet seen = new BitSet();
      int negatives = 0;
      for (int i = 0; i < n; i++) {
        int k = key[list[i]];
        if (k < 0) {
          negatives++;
        } else {
          seen.set(k);
        }
      }
      return seen.cardinality() + negatives;
    }

    /** The best set of exactly {@code k} disjoint paths as candidate indices, or null if none. */
    int[] best(int k) {
      target = k;
      bestSet = null;
      bestSpread = Double.POSITIVE_INFINITY;
      bestSum = Double.POSITIVE_INFINITY;
      int m = delay.length;
      for (int a = 0; a + k <= m; a++) {
        chosen[0] = a;
        if (k == 1) {
          consider(1);
          continue;
        }
        int[] next = new int[m - a - 1];
        int n = 0;
        for (int b = a + 1; b < m; b++) {
          if (delay[b] - delay[a] > bestSpread) {
            break;
          }
          if (!links[a].intersects(links[b])) {
            next[n++] = b;
          }
        }
        extend(1, next, n);
      }
      if (bestSet == null) {
        return null;
      }
      return Arrays.stream(bestSet).map(pos -> candidate[pos]).toArray();
    }

    /** Extends {@code chosen[0..size)} with paths from the first {@code n} of {@code list}. */
    private void extend(int size, int[] list, int n) {
      int need = target - size;
      if (n < need || cutBound(list, n) < need) {
        return;
      }
      double base = delay[chosen[0]];
      for (int i = 0; i + need <= n; i++) {
        int b = list[i];
        if (delay[b] - base > bestSpread) {
          return;
        }
        if (!slotFree(b, size)) {
          continue;
        }
        chosen[size] = b;
        if (need == 1) {
          consider(size + 1);
          continue;
        }
        int[] next = new int[n - i - 1];
        int m = 0;
        for (int j = i + 1; j < n; j++) {
          int c = list[j];
          if (delay[c] - base > bestSpread) {
            break;
          }
          if (!links[b].intersects(links[c])) {
            next[m++] = c;
          }
        }
        extend(size + 1, next, m);
      }
    }

    /** True when position {@code b}'s switch has a slot beside {@code chosen[0..size)}. */
    private boolean slotFree(int b, int size) {
      int[] taken = new int[size];
      for (int i = 0; i < size; i++) {
        taken[i] = candidate[chosen[i]];
      }
      return problem.slotFree(candidate[b], taken, size);
    }

    /** Records {@code chosen[0..size)} (a full set, in delay order) if it beats the best. */
    private void consider(int size) {
      double spread = delay[chosen[size - 1]] - delay[chosen[0]];
      double sum = 0;
      for (int i = 0; i < size; i++) {
        sum += delay[chosen[i]];
      }
      int cmp = Double.compare(spread, bestSpread);
      if (cmp == 0) {
        cmp = Double.compare(sum, bestSum);
      }
      if (cmp == 0) {
        cmp = Arrays.compare(sortedIndices(chosen, size), sortedIndices(bestSet, size));
      }
      if (cmp < 0) {
        bestSet = Arrays.copyOf(chosen, size);
        bestSpread = spread;
        bestSum = sum;
      }
    }

    private int[] sortedIndices(int[] positions, int size) {
      int[] idx = new int[size];
      for (int i = 0; i < size; i++) {
        idx[i] = candidate[positions[i]];
      }
      Arrays.sort(idx);
      return idx;
    }
  }
}

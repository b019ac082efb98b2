package org.mpqoe.core.select;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntToDoubleFunction;
import java.util.stream.IntStream;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.Topology;

/**
 * QoMRA, the QoE-centric multipath routing algorithm of Barakabitze et al., "A Novel QoE-Centric
 * SDN-Based Multipath Routing Approach for Multimedia Services over 5G Networks" (ICC 2018), as a
 * {@link PathSelector} ({@code qomra}). Algorithm 1, as implemented here:
 *
 * <ol>
 *   <li>Link metrics from the snapshot: delay, loss (descriptor), used capacity = max(reserved,
 *       measured load).
 *   <li>The connection store is queried first: a complete stored answer whose paths are all still
 *       candidates and all fit again is reused without computing anything (steps 8-9).
 *   <li>Otherwise every admissible candidate gets the cost sum over its links of w_d *
 *       delay/maxDelay + w_l * loss/maxLoss + w_c * criticality/maxCriticality + w_g * {@link
 *       CongestionIndex}(used / capacity); candidates that cannot carry b_r on their own are
 *       dropped ("bandwidth-satisfying"), and the k cheapest are kept (step 2); for a client with
 *       interfaces on several switches, the k cheapest from each of those switches.
 *   <li>Admission (step 3): the k paths are walked cheapest first, link-disjoint ones first, then
 *       the overlapping ones; a path is accepted when used + b_r (including this flow's earlier
 *       subflows) stays within each link's capacity and its first switch has an interface of the
 *       client without a path yet (eq. 5 per switch), until N subflows.
 *   <li>Each accepted path is mapped to its segment label list and stored per connection with its
 *       demand (steps 5-6); every accepted subflow reserves b_r on its links until released.
 * </ol>
 *
 * Link criticality (step 14) is recomputed from the stored demands every interval t. Stateful: all
 * state lives in a {@link QomraBooks}, locked for a whole selection.
 */
public final class QomraSelector implements StatefulSelector {
  /**
   * What QoMRA needs beyond the selection problem.
   *
   * @param books admission, store and criticality, shared across reconfigurations
   * @param lossPct a link's loss in percent (the descriptor's; nothing measures it)
   * @param labels a path's segment label list (the control plane's segment routing)
   */
  public record Context(
      QomraBooks books, IntToDoubleFunction lossPct, Function<Path, List<Integer>> labels) {
    /** Fresh books, no loss, no labels. */
    public static Context fresh() {
      return new Context(new QomraBooks(), l -> 0, p -> List.of());
    }

    /** Fresh books, the topology's loss, the given label encoder. */
    public static Context of(Topology topology, Function<Path, List<Integer>> labels) {
      return new Context(new QomraBooks(), l -> topology.links().get(l).lossPct(), labels);
    }
  }

  private final QomraConfig config;
  private final Context context;

  public QomraSelector(QomraConfig config, Context context) {
    this.config = config;
    this.context = context;
  }

  public QomraSelector(QomraConfig config) {
    this(config, Context.fresh());
  }

  public QomraSelector() {
    this(QomraConfig.DEFAULTS);
  }

  public QomraConfig config() {
    return config;
  }

  public QomraBooks books() {
    return context.books();
  }

  @Override
  public String name() {
    return "qomra";
  }

  @Override
  public Selection select(SelectionProblem problem) {
    QomraBooks books = context.books();
    synchronized (books) {
      String flow = problem.flow();
      AdmissionLedger ledger = books.ledger();
      ledger.release(flow);
      double b = config.requiredMbps();
      LinkState state = problem.state();
      int[] stored = fromStore(problem, books.store().get(flow), b);
      if (stored != null) {
        books.storeHit();
        for (int i : stored) {
          ledger.reserve(flow, problem.candidates().get(i), b);
        }
        return problem.selectionOf(name(), stored);
      }
      books.computed();
      LinkCriticality criticality = books.criticality(state.size(), config.k(), config.intervalS());
      double[] weight = linkWeights(state, ledger, criticality);
      List<Integer> shortest = kShortest(problem, weight, ledger, b);
      int[] accepted = admit(problem, shortest, ledger, b);
      List<Path> paths = new ArrayList<>();
      List<List<Integer>> labels = new ArrayList<>();
      for (int i : accepted) {
        Path p = problem.candidates().get(i);
        ledger.reserve(flow, p, b);
        paths.add(p);
        labels.add(context.labels().apply(p));
      }
      List<Path> all = problem.allCandidates();
      if (!all.isEmpty()) {
        int want = wanted(problem);
        books
            .store()
            .put(
                new ConnectionStore.Entry(
                    flow,
                    all.get(0).source(),
                    all.get(0).destination(),
                    paths,
                    labels,
                    all.subList(0, Math.min(config.k(), all.size())),
                    accepted.length >= want));
      }
      return problem.selectionOf(name(), accepted);
    }
  }

  /**
   * How many subflows a complete answer has: per switch with interfaces of the client, its slots,
   * at most k, at most the admissible candidates from there (min(N, k, candidates) on one switch).
   */
  private int wanted(SelectionProblem problem) {
    int[] from = new int[problem.slotGroups()];
    for (int i = 0; i < problem.size(); i++) {
      from[problem.slotGroup(i)]++;
    }
    int want = 0;
    for (int g = 0; g < from.length; g++) {
      want += Math.min(problem.slotsOfGroup(g), Math.min(config.k(), from[g]));
    }
    return Math.min(problem.maxPaths(), want);
  }

  /**
   * Candidate indices of a stored answer that can be reused as it is, or null: the entry must be
   * complete, have no more paths than the client has interfaces now, its paths must still be
   * admissible candidates that fit the client's slots, and all of them must fit again.
   */
  private int[] fromStore(SelectionProblem problem, ConnectionStore.Entry e, double b) {
    if (e == null
        || !e.complete()
        || e.paths().isEmpty()
        || e.paths().size() > problem.maxPaths()) {
      return null;
    }
    int[] idx = new int[e.paths().size()];
    double[] tentative = new double[problem.state().size()];
    for (int i = 0; i < idx.length; i++) {
      Path p = e.paths().get(i);
      idx[i] = problem.candidates().indexOf(p);
      if (idx[i] < 0
          || !problem.slotFree(idx[i], idx, i)
          || !books().ledger().fits(p, b, problem.state(), tentative)) {
        return null;
      }
      for (int l : p.links()) {
        tentative[l] += b;
      }
    }
    return idx;
  }

  /** Per-link cost of the shortest-path step. */
  double[] linkWeights(LinkState state, AdmissionLedger ledger, LinkCriticality criticality) {
    int n = state.size();
    double maxDelay = 0;
    double maxLoss = 0;
    for (int l = 0; l < n; l++) {
      maxDelay = Math.max(maxDelay, state.delayMs(l));
      maxLoss = Math.max(maxLoss, context.lossPct().applyAsDouble(l));
    }
    double[] w = new double[n];
    for (int l = 0; l < n; l++) {
      double delay = maxDelay > 0 ? state.delayMs(l) / maxDelay : 0;
      double loss = maxLoss > 0 ? context.lossPct().applyAsDouble(l) / maxLoss : 0;
      double congestion = CongestionIndex.of(ledger.usedMbps(l, state), state.capacityMbps(l));
      w[l] =
          config.delayWeight() * delay
              + config.lossWeight() * loss
              + config.criticalityWeight() * criticality.normalised(l)
              + config.congestionWeight() * congestion;
    }
    return w;
  }

  /**
   * The k cheapest admissible candidates that can carry b_r on their own, cheapest first (ties:
   * fewer hops, then candidate order); with interfaces on several switches, the k cheapest from
   * each switch, in one list cheapest first.
   */
  private List<Integer> kShortest(
      SelectionProblem problem, double[] weight, AdmissionLedger ledger, double b) {
    List<Path> c = problem.candidates();
    double[] cost = new double[c.size()];
    for (int i = 0; i < cost.length; i++) {
      for (int l : c.get(i).links()) {
        cost[i] += weight[l];
      }
    }
    return IntStream.range(0, c.size())
        .filter(i -> ledger.fits(c.get(i), b, problem.state(), null))
        .boxed()
        .sorted(
            Comparator.<Integer>comparingDouble(i -> cost[i])
                .thenComparingInt(i -> c.get(i).hops())
                .thenComparingInt(i -> i))
        .filter(new PerGroupLimit(problem, config.k()))
        .toList();
  }

  /** Passes at most k candidates of each slot group, in the order offered. */
  private static final class PerGroupLimit implements java.util.function.Predicate<Integer> {
    private final SelectionProblem problem;
    private final int[] left;

    PerGroupLimit(SelectionProblem problem, int k) {
      this.problem = problem;
      this.left = new int[problem.slotGroups()];
      java.util.Arrays.fill(left, k);
    }

    @Override
    public boolean test(Integer i) {
      return left[problem.slotGroup(i)]-- > 0;
    }
  }

  /**
   * Admission over the k paths: link-disjoint paths first, then overlapping ones, each accepted
   * when it fits together with the subflows accepted before it; at most N.
   */
  private int[] admit(
      SelectionProblem problem, List<Integer> shortest, AdmissionLedger ledger, double b) {
    List<Path> c = problem.candidates();
    double[] tentative = new double[problem.state().size()];
    List<Integer> accepted = new ArrayList<>();
    Set<Integer> taken = new HashSet<>();
    for (boolean disjointOnly : new boolean[] {true, false}) {
      for (int i : shortest) {
        if (accepted.size() >= problem.maxPaths() || taken.contains(i)) {
          continue;
        }
        Path p = c.get(i);
        boolean disjoint = accepted.stream().allMatch(a -> c.get(a).isLinkDisjoint(p));
        if (disjointOnly && !disjoint) {
          continue;
        }
        int[] sofar = accepted.stream().mapToInt(Integer::intValue).toArray();
        if (!problem.slotFree(i, sofar, sofar.length)) {
          continue;
        }
        if (ledger.fits(p, b, problem.state(), tentative)) {
          accepted.add(i);
          taken.add(i);
          for (int l : p.links()) {
            tentative[l] += b;
          }
        }
      }
    }
    return accepted.stream().mapToInt(Integer::intValue).toArray();
  }

  @Override
  public void clock(double seconds) {
    context.books().clock(seconds);
  }

  @Override
  public boolean subflowEnded(String flow, Path path) {
    QomraBooks books = context.books();
    synchronized (books) {
      return books.ledger().release(flow, path);
    }
  }

  @Override
  public void flowEnded(String flow) {
    QomraBooks books = context.books();
    synchronized (books) {
      books.ledger().release(flow);
    }
  }

  @Override
  public List<Path> rebook(String flow, List<Path> paths, LinkState state) {
    QomraBooks books = context.books();
    synchronized (books) {
      AdmissionLedger ledger = books.ledger();
      // Held reservations per path (a path may carry several of the flow's subflows).
      Map<Path, Integer> held = new HashMap<>();
      ledger.release(flow).forEach(r -> held.merge(r.path(), 1, Integer::sum));
      List<Path> answer = new ArrayList<>(paths);
      boolean[] kept = new boolean[answer.size()];
      // First the subflows that keep a path they held: admitted already, booked again as they
      // were. Then the replacements, checked against reservations only (the caller's state):
      // port counters cannot tell this flow's own elastic traffic from other traffic.
      for (int i = 0; i < answer.size(); i++) {
        Path p = answer.get(i);
        if (p != null && held.getOrDefault(p, 0) > 0) {
          held.merge(p, -1, Integer::sum);
          ledger.reserve(flow, p, config.requiredMbps());
          kept[i] = true;
        }
      }
      for (int i = 0; i < answer.size(); i++) {
        Path p = answer.get(i);
        if (p == null || kept[i]) {
          continue;
        }
        if (ledger.fits(p, config.requiredMbps(), state, null, false)) {
          ledger.reserve(flow, p, config.requiredMbps());
        } else {
          answer.set(i, null);
        }
      }
      return answer;
    }
  }
}

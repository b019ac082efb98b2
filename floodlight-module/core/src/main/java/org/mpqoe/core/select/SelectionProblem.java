package org.mpqoe.core.select;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.function.ToIntFunction;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;

/**
 * One client's join as the GA paper states it (eqs. 3-9), with every per-path quantity computed
 * once: the admissible candidates (delay at most thr_delay, eq. 4), their delays d_p, available
 * bandwidths abw_p, shares abw_p / (|H_p| + 1), and the links on which each would be too congested
 * to share (eq. 3). {@link #evaluate} is the one objective all selectors are scored with.
 *
 * <p>Normalisation (eq. 7 on values in [0, 1]): {@code zeta_norm = zeta / zeta_max} with {@code
 * zeta_max = C(n, 2) * (max d - min d)} over the candidates, an upper bound of zeta for any n
 * paths; {@code xi_norm = xi / xi_max} with {@code xi_max} the sum of the n largest shares, the
 * largest xi any n paths can reach; n = min(N, candidates). Both bounds depend only on the
 * instance, so fitness values of different path sets of one join are comparable. Fitness = alpha *
 * (1 - zeta_norm) + beta * xi_norm, and 0 when two chosen paths share a link whose congestion level
 * is above thr_cong.
 *
 * <p>Interfaces on several switches (eq. 5 per switch): a path can only carry the subflow of an
 * interface attached at its first switch, so a set of paths is feasible only when, for every switch
 * s, at most as many chosen paths start at s as the client has interfaces attached at s (its
 * <em>slots</em> at s). A client whose interfaces share one switch has N slots there, and the check
 * is k &lt;= N. {@link #feasible}, {@link #fitness(int[], int)}, {@link #score} and {@link
 * #scoreOf} apply it, so every selector that is scored here honours it; {@link #selectionOf} maps
 * the chosen paths to interfaces (see {@link Selection}).
 */
public final class SelectionProblem {
  private final String client;
  private final String server;
  private final int maxPaths;
  private final List<Path> candidates;
  private final List<Path> allCandidates;
  private final LinkState state;
  private final SelectionConfig config;
  private final long seed;
  private final double[] delay;
  private final double[] abw;
  private final int[] users;
  private final double[] share;
  private final BitSet[] congestedLinks;
  private final BitSet[] links;
  private final double zetaMax;
  private final double xiMax;
  private final ToIntFunction<Path> usersOfPath;
  private final double abwCeiling;

  /** The switch index of each interface, in interface order; null: all N at every source. */
  private final int[] interfaceSwitches;

  /** Per admissible candidate: the slot group of its first switch (0 when interfaces are null). */
  private final int[] group;

  /** Per slot group: how many interfaces are attached at its switch. */
  private final int[] slots;

  /** Per slot group: its switch index (-1 when interfaces are null). */
  private final int[] groupSwitch;

  /**
   * @param client who joins (for messages and logs)
   * @param maxPaths N: the client's number of interfaces (eq. 5)
   * @param allCandidates every simple path between the client's and the server's switch
   * @param state link state snapshot
   * @param usersOfPath |H_p|: how many other clients already use a path
   * @param config weights and thresholds
   * @param seed for randomised selectors
   */
  public SelectionProblem(
      String client,
      int maxPaths,
      List<Path> allCandidates,
      LinkState state,
      ToIntFunction<Path> usersOfPath,
      SelectionConfig config,
      long seed) {
    this(client, null, maxPaths, allCandidates, state, usersOfPath, config, seed);
  }

  /**
   * As above, naming the server too, so that selectors with books ({@link StatefulSelector}) can
   * tell a client's flows to different servers apart.
   *
   * @param server the server the client streams from (null: unknown, the flow is named after the
   *     server's switch)
   */
  public SelectionProblem(
      String client,
      String server,
      int maxPaths,
      List<Path> allCandidates,
      LinkState state,
      ToIntFunction<Path> usersOfPath,
      SelectionConfig config,
      long seed) {
    this(client, server, maxPaths, null, allCandidates, state, usersOfPath, config, seed);
  }

  /**
   * A join whose client has interfaces on given switches: the candidates may start at any of them
   * (the union of the simple paths from each interface's switch to the server's), and a set of
   * paths is feasible only within each switch's slots (see the class comment).
   *
   * @param interfaceSwitches the switch index of each of the client's interfaces, in interface
   *     order; its length is N
   * @param allCandidates every simple path from one of these switches to the server's switch; each
   *     must start at one of them
   */
  public SelectionProblem(
      String client,
      String server,
      int[] interfaceSwitches,
      List<Path> allCandidates,
      LinkState state,
      ToIntFunction<Path> usersOfPath,
      SelectionConfig config,
      long seed) {
    this(
        client,
        server,
        interfaceSwitches.length,
        interfaceSwitches.clone(),
        allCandidates,
        state,
        usersOfPath,
        config,
        seed);
  }

  private SelectionProblem(
      String client,
      String server,
      int maxPaths,
      int[] interfaceSwitches,
      List<Path> allCandidates,
      LinkState state,
      ToIntFunction<Path> usersOfPath,
      SelectionConfig config,
      long seed) {
    if (maxPaths < 1) {
      throw new IllegalArgumentException(
          "client " + client + ": N (number of interfaces) must be at least 1, got " + maxPaths);
    }
    this.client = client;
    this.server = server;
    this.maxPaths = maxPaths;
    this.allCandidates = List.copyOf(allCandidates);
    this.state = state;
    this.config = config;
    this.seed = seed;
    this.usersOfPath = usersOfPath;
    double capCeiling = 0;
    for (int l = 0; l < state.size(); l++) {
      capCeiling = Math.max(capCeiling, state.capacityMbps(l));
    }
    // A link-less path (client and server on one switch) is bounded by nothing in the network;
    // cap it at the largest capacity so that the objective stays finite.
    this.abwCeiling = capCeiling > 0 ? capCeiling : 1.0;
    List<Path> admissible = new ArrayList<>();
    for (Path p : allCandidates) {
      if (p.delayMs(state) <= config.thrDelayMs()) {
        admissible.add(p);
      }
    }
    this.candidates = List.copyOf(admissible);
    this.interfaceSwitches = interfaceSwitches;
    int c = candidates.size();
    if (interfaceSwitches == null) {
      group = new int[c];
      slots = new int[] {maxPaths};
      groupSwitch = new int[] {-1};
    } else {
      int[] distinct = Arrays.stream(interfaceSwitches).distinct().toArray();
      slots = new int[distinct.length];
      groupSwitch = distinct;
      for (int sw : interfaceSwitches) {
        slots[groupOfSwitch(sw)]++;
      }
      for (Path p : allCandidates) {
        if (groupOfSwitch(p.source()) < 0) {
          throw new IllegalArgumentException(
              "client "
                  + client
                  + ": candidate path "
                  + p
                  + " starts at switch "
                  + p.source()
                  + ", where the client has no interface");
        }
      }
      group = new int[c];
      for (int i = 0; i < c; i++) {
        group[i] = groupOfSwitch(candidates.get(i).source());
      }
    }
    delay = new double[c];
    abw = new double[c];
    users = new int[c];
    share = new double[c];
    congestedLinks = new BitSet[c];
    links = new BitSet[c];
    for (int i = 0; i < c; i++) {
      Path p = candidates.get(i);
      delay[i] = p.delayMs(state);
      abw[i] = availableOf(p);
      users[i] = Math.max(0, usersOfPath.applyAsInt(p));
      share[i] = abw[i] / (users[i] + 1);
      links[i] = new BitSet();
      congestedLinks[i] = new BitSet();
      for (int l : p.links()) {
        links[i].set(l);
        if (state.congestion(l) > config.thrCong()) {
          congestedLinks[i].set(l);
        }
      }
    }
    int n = Math.min(maxPaths, c);
    double dMin = Arrays.stream(delay).min().orElse(0);
    double dMax = Arrays.stream(delay).max().orElse(0);
    zetaMax = n * (n - 1) / 2.0 * (dMax - dMin);
    double[] sorted = share.clone();
    Arrays.sort(sorted);
    double top = 0;
    for (int i = 0; i < n; i++) {
      top += sorted[c - 1 - i];
    }
    xiMax = top;
  }

  public String client() {
    return client;
  }

  /** The server, or null when the caller did not name it. */
  public String server() {
    return server;
  }

  /**
   * The flow this join is: {@link #flowKey} of client and server, or of client and the server's
   * switch when no server was named.
   */
  public String flow() {
    if (server != null) {
      return flowKey(client, server);
    }
    return allCandidates.isEmpty()
        ? client
        : flowKey(client, "switch " + allCandidates.get(0).destination());
  }

  /** The name of the flow from {@code client} to {@code server}, as stateful selectors key it. */
  public static String flowKey(String client, String server) {
    return client + " -> " + server;
  }

  /** N: the most paths this client may get. */
  public int maxPaths() {
    return maxPaths;
  }

  /** The slot group of candidate i: one per switch with interfaces of the client. */
  public int slotGroup(int candidate) {
    return group[candidate];
  }

  /** How many interfaces the client has at the first switch of candidate i (its slots there). */
  public int slots(int candidate) {
    return slots[group[candidate]];
  }

  /** The number of slot groups: switches with interfaces of the client (1 without interfaces). */
  public int slotGroups() {
    return slots.length;
  }

  /** How many interfaces the client has at the switch of slot group {@code g}. */
  public int slotsOfGroup(int g) {
    return slots[g];
  }

  /**
   * True when interface {@code i} is attached at the first switch of {@code p}, i.e. may carry a
   * subflow on it (always true for a problem built from N alone).
   */
  public boolean startsAtInterface(Path p, int i) {
    return interfaceSwitches == null || interfaceSwitches[i] == p.source();
  }

  /** True when candidate {@code c} has a free slot beside the first {@code k} of {@code chosen}. */
  public boolean slotFree(int c, int[] chosen, int k) {
    int used = 0;
    for (int a = 0; a < k; a++) {
      if (group[chosen[a]] == group[c]) {
        used++;
      }
    }
    return used < slots[group[c]];
  }

  /** True when no switch has more of the first {@code k} entries starting at it than slots. */
  public boolean withinSlots(int[] chosen, int k) {
    if (slots.length == 1) {
      return k <= slots[0];
    }
    int[] used = new int[slots.length];
    for (int a = 0; a < k; a++) {
      int g = group[chosen[a]];
      if (++used[g] > slots[g]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The entries of {@code chosen} in order, each kept only while its switch has a free slot (the
   * GA's decoding); {@code chosen} itself when all fit.
   */
  public int[] keepWithinSlots(int[] chosen) {
    if (withinSlots(chosen, chosen.length)) {
      return chosen;
    }
    int[] kept = new int[chosen.length];
    int k = 0;
    for (int c : chosen) {
      if (slotFree(c, kept, k)) {
        kept[k++] = c;
      }
    }
    return Arrays.copyOf(kept, k);
  }

  /** Admissible candidates (delay at most thr_delay), indexed as in every array accessor. */
  public List<Path> candidates() {
    return candidates;
  }

  /** Every candidate before the thr_delay filter, shortest first. */
  public List<Path> allCandidates() {
    return allCandidates;
  }

  public int size() {
    return candidates.size();
  }

  public LinkState state() {
    return state;
  }

  public SelectionConfig config() {
    return config;
  }

  public long seed() {
    return seed;
  }

  public double delayMs(int candidate) {
    return delay[candidate];
  }

  public double availableMbps(int candidate) {
    return abw[candidate];
  }

  public int users(int candidate) {
    return users[candidate];
  }

  /** abw_p / (|H_p| + 1), the term of xi (eq. 9). */
  public double share(int candidate) {
    return share[candidate];
  }

  public double zetaMax() {
    return zetaMax;
  }

  public double xiMax() {
    return xiMax;
  }

  /**
   * True when candidates i and j share a link whose congestion is above thr_cong (eq. 3).
   * Symmetric: a shared congested link is in both paths.
   */
  public boolean conflict(int i, int j) {
    return congestedLinks[i].intersects(links[j]);
  }

  /** True when candidates i and j have no link in common. */
  public boolean disjoint(int i, int j) {
    return !links[i].intersects(links[j]);
  }

  /** Delay-difference term zeta (eq. 8) of the first {@code k} entries of {@code chosen}. */
  public double zeta(int[] chosen, int k) {
    double z = 0;
    for (int a = 0; a < k; a++) {
      for (int b = a + 1; b < k; b++) {
        z += Math.abs(delay[chosen[a]] - delay[chosen[b]]);
      }
    }
    return z;
  }

  /** Bandwidth term xi (eq. 9) of the first {@code k} entries of {@code chosen}. */
  public double xi(int[] chosen, int k) {
    double x = 0;
    for (int a = 0; a < k; a++) {
      x += share[chosen[a]];
    }
    return x;
  }

  /**
   * True when the first {@code k} entries fit the client's slots (eq. 5 per switch) and no two of
   * them conflict (eq. 3).
   */
  public boolean feasible(int[] chosen, int k) {
    if (!withinSlots(chosen, k)) {
      return false;
    }
    for (int a = 0; a < k; a++) {
      for (int b = a + 1; b < k; b++) {
        if (conflict(chosen[a], chosen[b])) {
          return false;
        }
      }
    }
    return true;
  }

  /** Fitness (eq. 7) from raw zeta and xi, without the feasibility check. */
  public double fitness(double zeta, double xi) {
    double zetaNorm = zetaMax > 0 ? zeta / zetaMax : 0;
    double xiNorm = xiMax > 0 ? xi / xiMax : 0;
    return config.alpha() * (1 - zetaNorm) + config.beta() * xiNorm;
  }

  /**
   * Fitness of the first {@code k} entries of {@code chosen}, which must be distinct candidate
   * indices; 0 for an empty or infeasible set.
   */
  public double fitness(int[] chosen, int k) {
    if (k == 0 || k > maxPaths || !feasible(chosen, k)) {
      return 0;
    }
    return fitness(zeta(chosen, k), xi(chosen, k));
  }

  /** The full score of a set of distinct candidate indices. */
  public Score score(int[] chosen) {
    int k = chosen.length;
    if (k == 0) {
      return Score.EMPTY;
    }
    boolean ok = k <= maxPaths && feasible(chosen, k);
    double z = zeta(chosen, k);
    double x = xi(chosen, k);
    return new Score(z, x, ok ? fitness(z, x) : 0, ok);
  }

  /**
   * A selection made of the given candidate indices (duplicates dropped), one subflow per path,
   * ordered by ascending path delay (ties: candidate index). Each path goes to an interface: the
   * interfaces attached at a switch take the chosen paths starting there in ascending delay, in
   * interface order. For a client on one switch, path i is interface i's (the first subflow takes
   * the fastest path). A path for which its switch has no free interface left is dropped (no
   * selector scored here chooses one).
   */
  public Selection selectionOf(String algorithm, int[] chosen) {
    int[] distinct = Arrays.stream(chosen).distinct().toArray();
    Integer[] order = Arrays.stream(distinct).boxed().toArray(Integer[]::new);
    Arrays.sort(
        order,
        (a, b) -> {
          int byDelay = Double.compare(delay[a], delay[b]);
          return byDelay != 0 ? byDelay : Integer.compare(a, b);
        });
    int[] sorted = Arrays.stream(order).mapToInt(Integer::intValue).toArray();
    if (interfaceSwitches == null) {
      List<Path> paths = Arrays.stream(sorted).mapToObj(candidates::get).toList();
      return new Selection(algorithm, client, paths, score(sorted));
    }
    boolean[] taken = new boolean[interfaceSwitches.length];
    int[] kept = new int[sorted.length];
    List<Path> paths = new ArrayList<>();
    List<Integer> interfaces = new ArrayList<>();
    int k = 0;
    for (int c : sorted) {
      Path p = candidates.get(c);
      for (int i = 0; i < taken.length; i++) {
        if (!taken[i] && interfaceSwitches[i] == p.source()) {
          taken[i] = true;
          kept[k++] = c;
          paths.add(p);
          interfaces.add(i);
          break;
        }
      }
    }
    return new Selection(algorithm, client, paths, interfaces, score(Arrays.copyOf(kept, k)));
  }

  private int groupOfSwitch(int sw) {
    for (int g = 0; g < groupSwitch.length; g++) {
      if (groupSwitch[g] == sw) {
        return g;
      }
    }
    return -1;
  }

  /** abw_p as the objective uses it: a link-less path is capped at the largest link capacity. */
  private double availableOf(Path p) {
    return Math.min(p.availableMbps(state), abwCeiling);
  }

  /**
   * Scores an arbitrary list of paths (possibly outside the admissible candidates, possibly
   * repeated, as plain forwarding does) with this problem's objective; a path's share counts once.
   * Feasible only when the distinct paths fit the client's slots (a path starting where the client
   * has no interface never does) and share no congested link.
   */
  public Score scoreOf(List<Path> paths) {
    List<Path> distinct = paths.stream().distinct().toList();
    int k = distinct.size();
    if (k == 0) {
      return Score.EMPTY;
    }
    double[] d = new double[k];
    double x = 0;
    boolean ok = k <= maxPaths;
    if (interfaceSwitches != null) {
      int[] used = new int[slots.length];
      for (Path p : distinct) {
        int g = groupOfSwitch(p.source());
        ok &= g >= 0 && ++used[g] <= slots[g];
      }
    }
    for (int a = 0; a < k; a++) {
      Path p = distinct.get(a);
      d[a] = p.delayMs(state);
      x += availableOf(p) / (Math.max(0, usersOfPath.applyAsInt(p)) + 1);
      for (int b = 0; b < a; b++) {
        ok &= !p.sharesCongestedLink(distinct.get(b), state, config.thrCong());
      }
    }
    double z = 0;
    for (int a = 0; a < k; a++) {
      for (int b = a + 1; b < k; b++) {
        z += Math.abs(d[a] - d[b]);
      }
    }
    return new Score(z, x, ok ? fitness(z, x) : 0, ok);
  }
}

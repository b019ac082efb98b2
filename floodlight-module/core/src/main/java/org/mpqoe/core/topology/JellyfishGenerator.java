package org.mpqoe.core.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.jgrapht.Graph;
import org.jgrapht.alg.connectivity.ConnectivityInspector;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;

/**
 * Jellyfish (Singla et al., NSDI 2012) as the GA paper uses it: switches of equal degree wired at
 * random. A random d-regular simple graph is drawn by the pairing model (shuffle every switch's d
 * ports, pair neighbours, reject self-loops and repeated pairs) and drawn again until it is also
 * connected. The seed goes into the descriptor so that the same graph can be made again.
 */
public final class JellyfishGenerator {
  private JellyfishGenerator() {}

  /** The random regular graph's edges as switch index pairs, in generation order. */
  public static List<int[]> edges(long seed, int switches, int degree) {
    if (switches < 2 || degree < 1 || degree >= switches || (switches * degree) % 2 != 0) {
      throw new IllegalArgumentException(
          "no " + degree + "-regular graph on " + switches + " switches");
    }
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    int[] stubs = new int[switches * degree];
    for (int attempt = 0; attempt < 1_000_000; attempt++) {
      for (int i = 0; i < stubs.length; i++) {
        stubs[i] = i / degree;
      }
      for (int i = stubs.length - 1; i > 0; i--) {
        int j = rng.nextInt(i + 1);
        int t = stubs[i];
        stubs[i] = stubs[j];
        stubs[j] = t;
      }
      List<int[]> edges = pairs(stubs);
      if (edges != null && connected(switches, edges)) {
        return edges;
      }
    }
    throw new IllegalStateException("no connected regular graph found");
  }

  private static List<int[]> pairs(int[] stubs) {
    List<int[]> edges = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < stubs.length; i += 2) {
      int a = Math.min(stubs[i], stubs[i + 1]);
      int b = Math.max(stubs[i], stubs[i + 1]);
      if (a == b || !seen.add(((long) a << 32) | b)) {
        return null;
      }
      edges.add(new int[] {a, b});
    }
    return edges;
  }

  private static boolean connected(int n, List<int[]> edges) {
    Graph<Integer, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
    for (int i = 0; i < n; i++) {
      g.addVertex(i);
    }
    edges.forEach(e -> g.addEdge(e[0], e[1]));
    return new ConnectivityInspector<>(g).isConnected();
  }

  /**
   * The descriptor of the GA paper's Jellyfish topology: switches {@code j1..jN}, nominal links of
   * 20 Mbit/s and 10 ms (scenarios draw their own), a server with three interfaces on {@code j1}.
   */
  public static Descriptor descriptor(
      String name, long seed, int switches, int degree, Descriptor.ScenarioJson scenario) {
    List<Descriptor.SwitchJson> sw = new ArrayList<>();
    for (int i = 0; i < switches; i++) {
      sw.add(new Descriptor.SwitchJson("j" + (i + 1), null));
    }
    List<Descriptor.LinkJson> links = new ArrayList<>();
    List<int[]> edges = new ArrayList<>(edges(seed, switches, degree));
    edges.sort((x, y) -> Arrays.compare(x, y));
    for (int[] e : edges) {
      links.add(new Descriptor.LinkJson("j" + (e[0] + 1), "j" + (e[1] + 1), 20.0, 10.0, 0.0));
    }
    List<Descriptor.InterfaceJson> serverIfaces = new ArrayList<>();
    for (int k = 1; k <= 3; k++) {
      serverIfaces.add(
          new Descriptor.InterfaceJson(
              "10.0." + k + ".1",
              String.format("02:00:00:00:%02x:01", k),
              "j1",
              1000.0,
              0.0,
              null));
    }
    List<String> clientSwitches = sw.stream().map(Descriptor.SwitchJson::name).skip(1).toList();
    return new Descriptor(
        1,
        name,
        "Jellyfish (Singla et al., NSDI 2012) as in the GA path-selection paper of Bikas & Sayit: "
            + switches
            + " switches of degree "
            + degree
            + " wired as a random regular graph (pairing model, redrawn until connected), generated"
            + " by `bin/mpqoe topology jellyfish` from the seed in \"generator\". Nominal link"
            + " values are placeholders; scenarios draw bandwidth and delay from the paper's"
            + " moments.",
        false,
        sw,
        links,
        List.of(new Descriptor.HostJson("server", "server", serverIfaces)),
        clientSwitches,
        new Descriptor.GeneratorJson("jellyfish", seed, switches, degree),
        scenario,
        null);
  }

  /** The GA paper's link model for Jellyfish (mean and std of link bandwidth per client count). */
  public static Descriptor.ScenarioJson paperScenario() {
    Map<String, Descriptor.MomentsJson> rows = new LinkedHashMap<>();
    rows.put("5", new Descriptor.MomentsJson(6.91, 2.16));
    rows.put("10", new Descriptor.MomentsJson(13.7, 5.98));
    rows.put("20", new Descriptor.MomentsJson(19.38, 7.77));
    rows.put("30", new Descriptor.MomentsJson(21.16, 13.03));
    return new Descriptor.ScenarioJson(new Descriptor.RangeJson(10.0, 100.0), rows, 300);
  }
}

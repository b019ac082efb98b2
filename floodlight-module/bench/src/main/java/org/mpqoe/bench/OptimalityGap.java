package org.mpqoe.bench;

import java.util.List;
import java.util.Locale;
import org.mpqoe.core.select.ExactSelector;
import org.mpqoe.core.select.GaConfig;
import org.mpqoe.core.select.GeneticSelector;
import org.mpqoe.core.select.SelectionProblem;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;

/**
 * How close the GA (paper population, 30 generations) comes to the exact optimum of the per-join
 * problem. Instance i (1..100) of a topology is the join problem of client (i-1) mod 10 of scenario
 * seed i (10 clients, 3 interfaces each, paper link model), the clients before it having joined
 * with the GA. Prints a Markdown table.
 *
 * <p>Usage: {@code java -cp benchmarks.jar org.mpqoe.bench.OptimalityGap [instances] [topology...]}
 */
public final class OptimalityGap {
  private static final List<String> TOPOLOGIES = List.of("custom12", "compuserve", "jellyfish20");
  private static final double TIE = 1e-9;

  private OptimalityGap() {}

  /** One topology's row. */
  record Row(
      String topology,
      int population,
      int instances,
      double meanRatio,
      double minRatio,
      int equal,
      double meanCandidates) {}

  public static void main(String[] args) {
    int instances = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    List<String> topologies = args.length > 1 ? List.of(args).subList(1, args.length) : TOPOLOGIES;
    long start = System.nanoTime();
    StringBuilder out = new StringBuilder();
    out.append(
        "| topology | GA population | instances | mean GA/exact % | min GA/exact % |"
            + " GA == exact | mean candidates |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|\n");
    for (String name : topologies) {
      Row r = run(TopologyLoader.load(name), instances);
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %d | %.3f | %.3f | %d/%d | %.1f |%n",
              r.topology(),
              r.population(),
              r.instances(),
              100 * r.meanRatio(),
              100 * r.minRatio(),
              r.equal(),
              r.instances(),
              r.meanCandidates()));
    }
    System.out.print(out);
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "Seeds: instance i = 1..%d is the join problem of client (i-1) mod 10 of scenario seed i"
            + " (10 clients x 3 interfaces, paper link model, earlier clients joined with the GA);"
            + " the GA's own seed is the join seed JoinSimulation.joinSeed(i, (i-1) mod 10)."
            + " Ratio = GA fitness / exact fitness (1 when the exact fitness is 0). Took %.1f s.%n",
        instances,
        (System.nanoTime() - start) / 1e9);
  }

  static Row run(Topology topology, int instances) {
    GaConfig ga = JoinInstances.paperGa(topology);
    ExactSelector exact = new ExactSelector();
    double sumRatio = 0;
    double minRatio = Double.POSITIVE_INFINITY;
    int equal = 0;
    long sumCandidates = 0;
    for (int i = 1; i <= instances; i++) {
      SelectionProblem problem =
          JoinInstances.joinProblem(topology, ga, i, (i - 1) % JoinInstances.CLIENTS);
      double g = new GeneticSelector(ga).select(problem).score().fitness();
      double e = exact.select(problem).score().fitness();
      double ratio = e == 0 ? 1.0 : g / e;
      sumRatio += ratio;
      minRatio = Math.min(minRatio, ratio);
      if (Math.abs(g - e) < TIE) {
        equal++;
      }
      sumCandidates += problem.size();
    }
    return new Row(
        topology.name(),
        ga.population(),
        instances,
        sumRatio / instances,
        minRatio,
        equal,
        (double) sumCandidates / instances);
  }
}

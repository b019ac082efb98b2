package org.mpqoe.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.mpqoe.core.select.ExactSelector;
import org.mpqoe.core.select.GaConfig;
import org.mpqoe.core.select.GeneticSelector;
import org.mpqoe.core.select.SelectionProblem;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;

/**
 * How close each GA variant ({@code ga}, the paper's Algorithm 1, and {@code ga-tuned}; paper
 * population, 30 generations) comes to the exact optimum of the per-join problem. Instance i
 * (1..100) of a topology is the join problem of client (i-1) mod 10 of scenario seed i (10 clients,
 * 3 interfaces each, paper link model), the clients before it having joined with {@code ga}. Both
 * variants solve the same instances. Prints a Markdown table.
 *
 * <p>Usage: {@code java -cp benchmarks.jar org.mpqoe.bench.OptimalityGap [instances] [topology...]}
 */
public final class OptimalityGap {
  private static final List<String> TOPOLOGIES = List.of("custom12", "compuserve", "jellyfish20");
  private static final List<GeneticSelector.Variant> VARIANTS =
      List.of(GeneticSelector.Variant.values());
  private static final double TIE = 1e-9;

  private OptimalityGap() {}

  /** One topology's row. */
  record Row(
      String topology,
      String algorithm,
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
        "| topology | algorithm | GA population | instances | mean GA/exact % | min GA/exact % |"
            + " GA == exact | mean candidates |\n");
    out.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (String name : topologies) {
      for (Row r : run(TopologyLoader.load(name), instances)) {
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %d | %d | %.3f | %.3f | %d/%d | %.1f |%n",
                r.topology(),
                r.algorithm(),
                r.population(),
                r.instances(),
                100 * r.meanRatio(),
                100 * r.minRatio(),
                r.equal(),
                r.instances(),
                r.meanCandidates()));
      }
    }
    System.out.print(out);
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "Seeds: instance i = 1..%d is the join problem of client (i-1) mod 10 of scenario seed i"
            + " (10 clients x 3 interfaces, paper link model, earlier clients joined with ga);"
            + " the GA's own seed is the join seed JoinSimulation.joinSeed(i, (i-1) mod 10)."
            + " Ratio = GA fitness / exact fitness (1 when the exact fitness is 0). Took %.1f s.%n",
        instances,
        (System.nanoTime() - start) / 1e9);
  }

  /** One row per GA variant, all on the same instances. */
  static List<Row> run(Topology topology, int instances) {
    GaConfig ga = JoinInstances.paperGa(topology);
    ExactSelector exact = new ExactSelector();
    int v = VARIANTS.size();
    double[] sumRatio = new double[v];
    double[] minRatio = new double[v];
    Arrays.fill(minRatio, Double.POSITIVE_INFINITY);
    int[] equal = new int[v];
    long sumCandidates = 0;
    for (int i = 1; i <= instances; i++) {
      SelectionProblem problem =
          JoinInstances.joinProblem(topology, ga, i, (i - 1) % JoinInstances.CLIENTS);
      double e = exact.select(problem).score().fitness();
      for (int k = 0; k < v; k++) {
        double g = new GeneticSelector(ga, VARIANTS.get(k)).select(problem).score().fitness();
        double ratio = e == 0 ? 1.0 : g / e;
        sumRatio[k] += ratio;
        minRatio[k] = Math.min(minRatio[k], ratio);
        if (Math.abs(g - e) < TIE) {
          equal[k]++;
        }
      }
      sumCandidates += problem.size();
    }
    List<Row> rows = new ArrayList<>();
    for (int k = 0; k < v; k++) {
      rows.add(
          new Row(
              topology.name(),
              VARIANTS.get(k).algorithm(),
              ga.population(),
              instances,
              sumRatio[k] / instances,
              minRatio[k],
              equal[k],
              (double) sumCandidates / instances));
    }
    return rows;
  }
}

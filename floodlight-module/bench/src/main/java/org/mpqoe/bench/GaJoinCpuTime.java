package org.mpqoe.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.mpqoe.core.select.PathSelector;
import org.mpqoe.core.select.SelectionProblem;
import org.mpqoe.core.select.Selectors;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;

/**
 * CPU time of one GA join, {@code ga} against {@code ga-tuned}, on the {@link JoinBenchmark}
 * instances. The calling thread's CPU time (not wall time) is taken around each {@code select}, and
 * the two variants alternate instance by instance, so that other work on a shared machine neither
 * adds waiting time nor favours one variant. Prints a Markdown table in ms.
 *
 * <p>Usage: {@code java -cp benchmarks.jar org.mpqoe.bench.GaJoinCpuTime [passes] [topology...]}
 */
public final class GaJoinCpuTime {
  private static final List<String> TOPOLOGIES = List.of("custom12", "compuserve", "jellyfish20");
  private static final List<String> ALGORITHMS = List.of("ga", "ga-tuned");
  private static final int WARMUP_PASSES = 3;

  private GaJoinCpuTime() {}

  public static void main(String[] args) {
    int passes = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    List<String> topologies = args.length > 1 ? List.of(args).subList(1, args.length) : TOPOLOGIES;
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long start = System.nanoTime();
    StringBuilder out = new StringBuilder();
    out.append("| topology | algorithm | GA population | joins | median | p90 | p99 | mean |\n");
    out.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (String name : topologies) {
      Topology topology = TopologyLoader.load(name);
      List<SelectionProblem> problems = JoinInstances.build(topology, JoinBenchmark.INSTANCES);
      PathSelector[] selectors =
          ALGORITHMS.stream()
              .map(a -> Selectors.create(a, JoinInstances.paperGa(topology)))
              .toArray(PathSelector[]::new);
      int joins = passes * problems.size();
      long[][] cpu = new long[selectors.length][joins];
      for (int pass = -WARMUP_PASSES; pass < passes; pass++) {
        for (int i = 0; i < problems.size(); i++) {
          for (int a = 0; a < selectors.length; a++) {
            long t0 = mx.getCurrentThreadCpuTime();
            selectors[a].select(problems.get(i));
            long t = mx.getCurrentThreadCpuTime() - t0;
            if (pass >= 0) {
              cpu[a][pass * problems.size() + i] = t;
            }
          }
        }
      }
      for (int a = 0; a < selectors.length; a++) {
        long[] t = cpu[a];
        Arrays.sort(t);
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %d | %d | %.3f | %.3f | %.3f | %.3f |%n",
                name,
                ALGORITHMS.get(a),
                JoinInstances.paperPopulation(topology),
                joins,
                t[joins / 2] / 1e6,
                t[(int) (joins * 0.9)] / 1e6,
                t[(int) (joins * 0.99)] / 1e6,
                Arrays.stream(t).average().orElse(0) / 1e6));
      }
    }
    System.out.print(out);
    System.out.printf(
        Locale.ROOT,
        "%nThread CPU time per join in ms, %d passes over %d instances after %d warm-up passes."
            + " Took %.1f s.%n",
        passes,
        JoinBenchmark.INSTANCES,
        WARMUP_PASSES,
        (System.nanoTime() - start) / 1e9);
  }
}

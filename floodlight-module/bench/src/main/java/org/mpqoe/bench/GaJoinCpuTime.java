package org.mpqoe.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import org.mpqoe.core.select.PathSelector;
import org.mpqoe.core.select.SelectionProblem;
import org.mpqoe.core.select.Selectors;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyException;
import org.mpqoe.core.topology.TopologyLoader;

/**
 * CPU time of one GA join, {@code ga} against {@code ga-tuned}, on the {@link JoinBenchmark}
 * instances. The calling thread's CPU time (not wall time) is taken around each {@code select}, and
 * the two variants alternate instance by instance, so that other work on a shared machine neither
 * adds waiting time nor favours one variant.
 *
 * <p>Prints CSV, one row per timed join (after the warm-up passes): topology, algorithm, GA
 * population, pass, instance and the thread CPU time in µs. floodlight-module/bench/perf_report.py
 * summarises it (docs/perf.md); the pairs of one pass and instance are the paired samples of its
 * comparison of the variants.
 *
 * <p>Usage: {@code java -cp benchmarks.jar org.mpqoe.bench.GaJoinCpuTime [passes] [topology...]}
 */
public final class GaJoinCpuTime {
  static final String USAGE = "GaJoinCpuTime [passes] [topology...]";
  private static final List<String> ALGORITHMS = List.of("ga", "ga-tuned");
  private static final int WARMUP_PASSES = 3;

  private GaJoinCpuTime() {}

  public static void main(String[] args) {
    try {
      int passes = args.length > 0 ? BenchArgs.positive(args[0], "passes") : 10;
      List<String> topologies =
          args.length > 1 ? List.of(args).subList(1, args.length) : BenchArgs.TOPOLOGIES;
      topologies.forEach(TopologyLoader::load); // a bad name fails before any time is spent
      run(passes, topologies);
    } catch (IllegalArgumentException | TopologyException e) {
      BenchArgs.fail(USAGE, e);
    }
  }

  private static void run(int passes, List<String> topologies) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long start = System.nanoTime();
    StringBuilder out = new StringBuilder("topology,algorithm,population,pass,instance,cpu_us\n");
    for (String name : topologies) {
      Topology topology = TopologyLoader.load(name);
      List<SelectionProblem> problems = JoinInstances.build(topology, JoinBenchmark.INSTANCES);
      PathSelector[] selectors =
          ALGORITHMS.stream()
              .map(a -> Selectors.create(a, JoinInstances.paperGa(topology)))
              .toArray(PathSelector[]::new);
      int n = problems.size();
      long[][] cpu = new long[selectors.length][passes * n];
      for (int pass = -WARMUP_PASSES; pass < passes; pass++) {
        for (int i = 0; i < n; i++) {
          for (int a = 0; a < selectors.length; a++) {
            long t0 = mx.getCurrentThreadCpuTime();
            selectors[a].select(problems.get(i));
            long t = mx.getCurrentThreadCpuTime() - t0;
            if (pass >= 0) {
              cpu[a][pass * n + i] = t;
            }
          }
        }
      }
      // written after the timed loop, so that formatting allocates nothing between the joins
      for (int j = 0; j < passes * n; j++) {
        for (int a = 0; a < selectors.length; a++) {
          out.append(
              String.format(
                  Locale.ROOT,
                  "%s,%s,%d,%d,%d,%.1f%n",
                  name,
                  ALGORITHMS.get(a),
                  JoinInstances.paperPopulation(topology),
                  j / n + 1,
                  j % n + 1,
                  cpu[a][j] / 1e3));
        }
      }
    }
    System.out.print(out);
    System.err.printf(
        Locale.ROOT,
        "GaJoinCpuTime: %d passes over %d instances after %d warm-up passes, took %.1f s%n",
        passes,
        JoinBenchmark.INSTANCES,
        WARMUP_PASSES,
        (System.nanoTime() - start) / 1e9);
  }
}

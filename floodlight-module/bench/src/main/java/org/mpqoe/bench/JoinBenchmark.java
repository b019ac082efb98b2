package org.mpqoe.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.mpqoe.core.select.PathSelector;
import org.mpqoe.core.select.Selection;
import org.mpqoe.core.select.SelectionProblem;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time of one path selection (one client's join) on realistic join problems ({@link JoinInstances},
 * driven by the GA with the paper's population), cycled round-robin. Only {@link
 * PathSelector#select} is timed, not building the problem. Subclasses name the selector.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
public abstract class JoinBenchmark {
  /** Instances per topology. */
  public static final int INSTANCES = 64;

  @Param({"custom12", "compuserve", "jellyfish20"})
  public String topology;

  private PathSelector selector;
  private List<SelectionProblem> problems;
  private int next;

  /** The selector under test on {@code topology}. */
  protected abstract PathSelector selector(Topology topology);

  @Setup(Level.Trial)
  public void setUp() {
    Topology topo = TopologyLoader.load(topology);
    selector = selector(topo);
    problems = JoinInstances.build(topo, INSTANCES);
    next = 0;
  }

  @Benchmark
  public Selection select() {
    SelectionProblem p = problems.get(next);
    next = next + 1 == problems.size() ? 0 : next + 1;
    return selector.select(p);
  }
}

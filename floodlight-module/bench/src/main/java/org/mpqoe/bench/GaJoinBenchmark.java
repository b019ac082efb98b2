package org.mpqoe.bench;

import java.util.concurrent.TimeUnit;
import org.mpqoe.core.select.PathSelector;
import org.mpqoe.core.select.Selectors;
import org.mpqoe.core.topology.Topology;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;

/**
 * One GA join with the paper's population for the topology and 30 generations, in ms: {@code ga}
 * (the paper's Algorithm 1) and {@code ga-tuned}.
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class GaJoinBenchmark extends JoinBenchmark {
  @Param({"ga", "ga-tuned"})
  public String algorithm;

  @Override
  protected PathSelector selector(Topology topology) {
    return Selectors.create(algorithm, JoinInstances.paperGa(topology));
  }
}

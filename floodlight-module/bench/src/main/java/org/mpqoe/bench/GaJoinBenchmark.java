package org.mpqoe.bench;

import java.util.concurrent.TimeUnit;
import org.mpqoe.core.select.GeneticSelector;
import org.mpqoe.core.select.PathSelector;
import org.mpqoe.core.topology.Topology;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/** One GA join with the paper's population for the topology and 30 generations, in ms. */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class GaJoinBenchmark extends JoinBenchmark {
  @Override
  protected PathSelector selector(Topology topology) {
    return new GeneticSelector(JoinInstances.paperGa(topology));
  }
}

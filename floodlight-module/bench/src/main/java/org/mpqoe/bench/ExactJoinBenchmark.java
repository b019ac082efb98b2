package org.mpqoe.bench;

import java.util.concurrent.TimeUnit;
import org.mpqoe.core.select.ExactSelector;
import org.mpqoe.core.select.PathSelector;
import org.mpqoe.core.topology.Topology;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/** One exact (branch-and-bound) join on the GA benchmark's instances, in µs. */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ExactJoinBenchmark extends JoinBenchmark {
  @Override
  protected PathSelector selector(Topology topology) {
    return new ExactSelector();
  }
}

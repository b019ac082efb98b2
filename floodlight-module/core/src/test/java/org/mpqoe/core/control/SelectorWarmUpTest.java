package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.QomraSelector;
import org.mpqoe.core.select.Selectors;
import org.mpqoe.core.topology.Host;

class SelectorWarmUpTest {
  @Test
  void runsTheSelectorUntilItsTimeSettlesOrABoundIsReached() {
    ControlConfig config = ControlConfig.defaults().withAlgorithm("ga");
    Host client = MptcpRouterTest.TOPO.clients().get(0);
    Host server = MptcpRouterTest.TOPO.servers().get(0);
    List<Path> candidates =
        new CandidatePaths(MptcpRouterTest.TOPO, 8).between(client.firstHop(), server.firstHop());
    LinkStateTracker links = new LinkStateTracker(MptcpRouterTest.TOPO);
    SelectorWarmUp w =
        new SelectorWarmUp(
            "ga",
            () ->
                Selectors.create("ga", config.ga(), config.qomra(), QomraSelector.Context.fresh()),
            client,
            server,
            candidates,
            links::snapshot,
            config);
    long start = System.nanoTime();
    w.run();
    long took = System.nanoTime() - start;
    // It ends settled (after enough runs), or at one of its bounds; never before.
    assertTrue(
        w.settled()
            ? w.runs() >= SelectorWarmUp.MIN_RUNS
            : w.runs() == SelectorWarmUp.MAX_RUNS || took >= SelectorWarmUp.MAX_NANOS,
        "settled " + w.settled() + " after " + w.runs() + " runs");
    assertTrue(w.runs() <= SelectorWarmUp.MAX_RUNS, "runs " + w.runs());
    assertTrue(w.fastestNanos() > 0 && w.fastestNanos() < Long.MAX_VALUE);
  }
}

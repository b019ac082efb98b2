package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpqoe.core.control.MptcpRouterTest.CL1;
import static org.mpqoe.core.control.MptcpRouterTest.syn;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.select.ExactSelector;
import org.mpqoe.core.select.PathSelector;
import org.mpqoe.core.select.Selection;
import org.mpqoe.core.select.SelectionProblem;

/**
 * Selection runs outside the router's lock: a selection that hangs for one client holds up neither
 * another client's SYN nor a link event, and a client is never selected for twice at once.
 */
class RouterConcurrencyTest {
  static final int TWO = Addresses.parseIpv4("10.0.1.12");

  /** The exact selector, except that the first selection for "cl" waits for {@link #release}. */
  static final class GatedSelector implements PathSelector {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger forCl = new AtomicInteger();
    final PathSelector exact = new ExactSelector();

    @Override
    public String name() {
      return "gated";
    }

    @Override
    public Selection select(SelectionProblem problem) {
      if (problem.client().equals("cl") && forCl.incrementAndGet() == 1) {
        entered.countDown();
        try {
          assertTrue(release.await(10, TimeUnit.SECONDS), "never released");
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }
      return exact.select(problem);
    }
  }

  static MptcpRouter gated(GatedSelector g) {
    MptcpRouter r = MptcpRouterTest.router();
    r.state.selection.use(g);
    return r;
  }

  @Test
  void anotherClientsSynCompletesWhileAClientsSelectionRunsAndTheClientSelectsOnce()
      throws Exception {
    GatedSelector g = new GatedSelector();
    MptcpRouter r = gated(g);
    CompletableFuture<Reaction> first =
        CompletableFuture.supplyAsync(() -> r.handle(syn(CL1, 5000)).orElseThrow());
    assertTrue(g.entered.await(10, TimeUnit.SECONDS));
    // A second SYN of the same client (another connection) waits for the first one's selection.
    Thread second =
        new Thread(
            () -> {
              Reaction re = r.handle(syn(CL1, 6000)).orElseThrow();
              assertEquals(Reaction.Kind.MPTCP, re.kind());
            });
    second.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (second.getState() != Thread.State.BLOCKED && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertEquals(Thread.State.BLOCKED, second.getState(), "waits on the client's lock");
    // Client "two" is not held up by cl's selection, nor is REST.
    Reaction other = r.handle(syn(TWO, 7000)).orElseThrow();
    assertEquals(Reaction.Kind.MPTCP, other.kind());
    assertEquals(1, r.connections().size());
    assertEquals(1, r.assignments().size());
    assertFalse(first.isDone());
    g.release.countDown();
    assertEquals(Reaction.Kind.MPTCP, first.get(10, TimeUnit.SECONDS).kind());
    second.join(10_000);
    assertFalse(second.isAlive());
    assertEquals(1, g.forCl.get(), "the second SYN used the first one's assignment");
    assertEquals(3, r.connections().size());
    var cl = r.assignments().stream().filter(a -> a.client().name().equals("cl")).findFirst();
    assertEquals(2, cl.orElseThrow().connections());
  }

  @Test
  void aSelectionOverALinkThatWentDownMeanwhileIsRedone() throws Exception {
    GatedSelector g = new GatedSelector();
    MptcpRouter r = gated(g);
    CompletableFuture<Reaction> first =
        CompletableFuture.supplyAsync(() -> r.handle(syn(CL1, 5000)).orElseThrow());
    assertTrue(g.entered.await(10, TimeUnit.SECONDS));
    int ab = 0;
    // Nothing is assigned yet: the link event has nothing to move and does not wait.
    assertTrue(r.linkChanged(ab, false).isEmpty());
    g.release.countDown();
    Reaction re = first.get(10, TimeUnit.SECONDS);
    assertEquals(Reaction.Kind.MPTCP, re.kind());
    assertEquals(2, g.forCl.get(), "selected again without the link");
    var a = r.assignments().get(0);
    assertFalse(a.uses(ab), a.paths().toString());
    re.plan().installs().forEach(rule -> assertTrue(rule.dpid() != 2, "no rule on b"));
  }
}

package org.mpqoe.core.control;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.select.PathSelector;
import org.mpqoe.core.select.SelectionProblem;
import org.mpqoe.core.topology.Host;

/**
 * Runs a throw-away selector until the JIT has compiled it, so that the first client does not pay
 * for it: the GA needs dozens to hundreds of runs before its time settles (on CompuServe from some
 * 20 ms to 2-3 ms per selection). It runs on a daemon thread of its own, so that switches connect
 * and packet-ins are handled meanwhile; it touches no book (fresh selector, no users).
 *
 * <p>Compiled code belongs to the JVM, not to a control plane: each algorithm is warmed up once per
 * JVM ({@link #start} does nothing for one already warmed or warming), so that many control planes
 * in one JVM (tests) do not each start a thread.
 *
 * <p>Settled means: at least {@link #MIN_RUNS} runs, and the last {@link #STABLE_RUNS} each within
 * 50 % (or 0.5 ms) of the fastest run so far. On a busy machine the times never settle, and a
 * warm-up still running when the first SYN arrives takes a core from it: it stops after {@link
 * #MAX_RUNS} runs or {@link #MAX_NANOS}, whichever comes first (by then the JIT has compiled the
 * selector's hot code; on the e2e network the first selection took some 10 ms under load either
 * way, against 20-36 ms with a 300 ms warm-up).
 */
final class SelectorWarmUp implements Runnable {
  static final int MIN_RUNS = 50;
  static final int STABLE_RUNS = 10;
  static final int MAX_RUNS = 300;
  static final long MAX_NANOS = 3_000_000_000L;

  private static final Set<String> STARTED = ConcurrentHashMap.newKeySet();

  private final String algorithm;
  private final Supplier<PathSelector> selector;
  private final Host client;
  private final Host server;
  private final List<Path> candidates;
  private final Supplier<LinkState> links;
  private final ControlConfig config;
  private volatile int runs;
  private volatile long fastestNanos = Long.MAX_VALUE;
  private volatile boolean settled;

  SelectorWarmUp(
      String algorithm,
      Supplier<PathSelector> selector,
      Host client,
      Host server,
      List<Path> candidates,
      Supplier<LinkState> links,
      ControlConfig config) {
    this.algorithm = algorithm;
    this.selector = selector;
    this.client = client;
    this.server = server;
    this.candidates = List.copyOf(candidates);
    this.links = links;
    this.config = config;
  }

  /**
   * Starts the warm-up on a daemon thread and returns it; null when this JVM already warms or
   * warmed this algorithm.
   */
  Thread start() {
    if (!STARTED.add(algorithm)) {
      return null;
    }
    Thread t = new Thread(this, "mpqoe-selector-warm-up");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
    return t;
  }

  @Override
  public void run() {
    PathSelector s = selector.get();
    long start = System.nanoTime();
    int stable = 0;
    while (runs < MAX_RUNS
        && System.nanoTime() - start < MAX_NANOS
        && !Thread.currentThread().isInterrupted()) {
      long t = System.nanoTime();
      s.select(
          new SelectionProblem(
              client.name(),
              server.name(),
              client.interfaces().size(),
              candidates,
              links.get(),
              p -> 0,
              config.selection(),
              runs));
      long took = System.nanoTime() - t;
      runs++;
      if (took < fastestNanos) {
        fastestNanos = took;
      }
      boolean near = took <= fastestNanos * 3 / 2 || took - fastestNanos <= 500_000L;
      stable = near ? stable + 1 : 0;
      if (runs >= MIN_RUNS && stable >= STABLE_RUNS) {
        settled = true;
        return;
      }
    }
  }

  int runs() {
    return runs;
  }

  long fastestNanos() {
    return fastestNanos;
  }

  boolean settled() {
    return settled;
  }
}

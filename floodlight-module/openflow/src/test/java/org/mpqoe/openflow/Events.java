package org.mpqoe.openflow;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/** The controller's event lines as the tests read them. */
final class Events {
  private Events() {}

  /** The first event containing {@code containing} within 5 s, skipping the others. */
  static String await(BlockingQueue<String> events, String containing) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline) {
      String e = events.poll(100, TimeUnit.MILLISECONDS);
      if (e != null && e.contains(containing)) {
        return e;
      }
    }
    throw new AssertionError("no event containing '" + containing + "'");
  }
}

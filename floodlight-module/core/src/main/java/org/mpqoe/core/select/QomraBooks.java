package org.mpqoe.core.select;

import java.util.List;

/**
 * Everything QoMRA keeps between joins: the admission ledger, the connection store, the current
 * link criticality snapshot and the clock. A controller keeps one for its lifetime, so that
 * changing QoMRA's parameters does not forget what was admitted. Every method synchronizes on this
 * object; {@link QomraSelector} holds the same lock for a whole selection. Reservations are made
 * and given back only through {@link QomraSelector} ({@link StatefulSelector}).
 */
public final class QomraBooks {
  private final AdmissionLedger ledger = new AdmissionLedger();
  private final ConnectionStore store = new ConnectionStore();
  private LinkCriticality criticality = LinkCriticality.none(0);
  private double criticalityAtS = Double.NaN;
  private double nowS;
  private long computations;
  private long storeHits;
  private long criticalityComputations;

  public synchronized AdmissionLedger ledger() {
    return ledger;
  }

  public synchronized ConnectionStore store() {
    return store;
  }

  /** The caller's current time, seconds (any origin; only differences matter). */
  public synchronized void clock(double seconds) {
    if (Double.isFinite(seconds)) {
      nowS = seconds;
    }
  }

  public synchronized double now() {
    return nowS;
  }

  /**
   * The criticality snapshot; recomputed from the stored demands when none exists yet, when the
   * number of links changed, or when at least {@code intervalS} passed since the last computation.
   */
  public synchronized LinkCriticality criticality(int links, int k, double intervalS) {
    boolean due =
        Double.isNaN(criticalityAtS)
            || criticality.size() != links
            || nowS - criticalityAtS >= intervalS
            || nowS < criticalityAtS;
    if (due) {
      List<List<org.mpqoe.core.path.Path>> demands =
          store.entries().stream().map(ConnectionStore.Entry::shortest).toList();
      criticality = LinkCriticality.of(links, demands, k);
      criticalityAtS = nowS;
      criticalityComputations++;
    }
    return criticality;
  }

  /**
   * The topology was replaced: reservations follow their paths ({@link AdmissionLedger#translate});
   * stored answers and the criticality snapshot are in the old link indices and are dropped (the
   * next selection computes again).
   */
  public synchronized void translate(java.util.function.UnaryOperator<org.mpqoe.core.path.Path> f) {
    ledger.translate(f);
    store.clear();
    criticality = LinkCriticality.none(0);
    criticalityAtS = Double.NaN;
  }

  /** The last snapshot, without recomputing. */
  public synchronized LinkCriticality lastCriticality() {
    return criticality;
  }

  /** When the last snapshot was computed (NaN before the first). */
  public synchronized double criticalityAtS() {
    return criticalityAtS;
  }

  synchronized void computed() {
    computations++;
  }

  synchronized void storeHit() {
    storeHits++;
  }

  /** Selections that computed paths (the store had no usable answer). */
  public synchronized long computations() {
    return computations;
  }

  /** Selections answered from the connection store. */
  public synchronized long storeHits() {
    return storeHits;
  }

  /** How often criticality was recomputed. */
  public synchronized long criticalityComputations() {
    return criticalityComputations;
  }
}

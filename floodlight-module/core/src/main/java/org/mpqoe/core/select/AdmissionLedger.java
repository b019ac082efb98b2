package org.mpqoe.core.select;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;

/**
 * QoMRA's admission accounting: the rate each admitted subflow reserved on the links of its path,
 * per flow (client towards server). "The flow is admissible only if on each link, the sum of the
 * rates of the allocated subflows does not exceed the link capacity": {@link #fits} is that test,
 * and reservations are given back when subflows or flows end, so capacity frees again. Not
 * thread-safe on its own: {@link QomraBooks} guards it.
 */
public final class AdmissionLedger {
  /** Slack for floating-point sums: a link may be filled to its capacity, not beyond. */
  static final double EPSILON = 1e-9;

  /** One admitted subflow: its path and the rate it reserved on every link of it. */
  public record Reservation(Path path, double rateMbps) {}

  private double[] reserved = new double[0];
  private final Map<String, List<Reservation>> byFlow = new LinkedHashMap<>();

  /** Mbit/s reserved on a link by admitted subflows. */
  public double reservedMbps(int link) {
    return link < reserved.length ? reserved[link] : 0;
  }

  /**
   * What admission counts as used on a link: the larger of the reservations and the measured load
   * (traffic the ledger does not know, such as plain TCP, is seen through the measurement; our own
   * subflows are in both, so the two are not added).
   */
  public double usedMbps(int link, LinkState state) {
    double measured = link < state.size() ? state.loadMbps(link) : 0;
    return Math.max(reservedMbps(link), measured);
  }

  /**
   * True when {@code rateMbps} more on every link of {@code path} keeps each within its capacity:
   * used + extra + rate &lt;= capacity, with {@code extra[l]} the tentative reservations of the
   * selection in progress (may be null).
   */
  public boolean fits(Path path, double rateMbps, LinkState state, double[] extra) {
    return fits(path, rateMbps, state, extra, true);
  }

  /**
   * As {@link #fits(Path, double, LinkState, double[])}; with {@code measured} false only the
   * reservations count (the measured load is ignored).
   */
  public boolean fits(
      Path path, double rateMbps, LinkState state, double[] extra, boolean measured) {
    for (int l : path.links()) {
      double tentative = extra == null ? 0 : extra[l];
      double used = measured ? usedMbps(l, state) : reservedMbps(l);
      if (used + tentative + rateMbps > state.capacityMbps(l) + EPSILON) {
        return false;
      }
    }
    return true;
  }

  /** Books one subflow of {@code flow} on {@code path}. */
  public void reserve(String flow, Path path, double rateMbps) {
    for (int l : path.links()) {
      grow(l);
      reserved[l] += rateMbps;
    }
    byFlow.computeIfAbsent(flow, f -> new ArrayList<>()).add(new Reservation(path, rateMbps));
  }

  /** Gives back one subflow's reservation of {@code flow} on {@code path}; false when none. */
  public boolean release(String flow, Path path) {
    List<Reservation> list = byFlow.get(flow);
    if (list == null) {
      return false;
    }
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).path().equals(path)) {
        unbook(list.remove(i));
        if (list.isEmpty()) {
          byFlow.remove(flow);
        }
        return true;
      }
    }
    return false;
  }

  /** Gives back every reservation of {@code flow}; returns what was released. */
  public List<Reservation> release(String flow) {
    List<Reservation> list = byFlow.remove(flow);
    if (list == null) {
      return List.of();
    }
    list.forEach(this::unbook);
    return list;
  }

  /**
   * The topology was replaced: every reservation moves to {@code translate} of its path (the same
   * links under their new indices), or is given back when that is null (the path lost a link).
   */
  public void translate(java.util.function.UnaryOperator<Path> translate) {
    Map<String, List<Reservation>> before = new LinkedHashMap<>(byFlow);
    byFlow.clear();
    reserved = new double[0];
    before.forEach(
        (flow, list) -> {
          for (Reservation r : list) {
            Path p = translate.apply(r.path());
            if (p != null) {
              reserve(flow, p, r.rateMbps());
            }
          }
        });
  }

  /** The reservations of one flow, in booking order. */
  public List<Reservation> of(String flow) {
    return List.copyOf(byFlow.getOrDefault(flow, List.of()));
  }

  /** Every flow with reservations, in first-booking order. */
  public Map<String, List<Reservation>> flows() {
    Map<String, List<Reservation>> copy = new LinkedHashMap<>();
    byFlow.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    return copy;
  }

  /** Admitted subflows over all flows. */
  public int subflows() {
    return byFlow.values().stream().mapToInt(List::size).sum();
  }

  /** A copy of the per-link reservations (as many entries as links ever booked). */
  public double[] reserved() {
    return reserved.clone();
  }

  private void unbook(Reservation r) {
    for (int l : r.path().links()) {
      // Sums of doubles drift: never leave a negative or tiny residue.
      reserved[l] = Math.max(0, reserved[l] - r.rateMbps());
      if (reserved[l] < EPSILON) {
        reserved[l] = 0;
      }
    }
  }

  private void grow(int link) {
    if (link >= reserved.length) {
      reserved = Arrays.copyOf(reserved, Math.max(link + 1, reserved.length * 2));
    }
  }
}

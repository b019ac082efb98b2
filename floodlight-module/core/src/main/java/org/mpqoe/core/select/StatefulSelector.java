package org.mpqoe.core.select;

import java.util.List;
import org.mpqoe.core.path.LinkState;
import org.mpqoe.core.path.Path;

/**
 * A selector that keeps books across joins (QoMRA: admission, connection store, criticality). Its
 * caller tells it the time and when subflows and flows end, so that their capacity is given back.
 * Flows are named by {@link SelectionProblem#flow()} / {@link SelectionProblem#flowKey}.
 */
public interface StatefulSelector extends PathSelector {
  /** The caller's current time in seconds, before a selection. */
  void clock(double seconds);

  /**
   * One subflow of {@code flow} on {@code path} ended: its reservation is released. True when there
   * was one (the caller then takes the path away from the flow, so that others can be admitted on
   * it).
   */
  boolean subflowEnded(String flow, Path path);

  /** Every subflow of {@code flow} ended: all its reservations are released. */
  void flowEnded(String flow);

  /**
   * The caller kept some of the flow's paths and replaced others (a link went down): the flow's
   * reservations become {@code paths} (null entries skipped). Subflows that keep a path they held
   * are booked again as they were (admitted already); a replacement path that does not fit by the
   * reservations (capacities from {@code state}; measured load ignored, since it contains the
   * flow's own traffic) becomes null in the answer and must get no rules.
   */
  List<Path> rebook(String flow, List<Path> paths, LinkState state);
}

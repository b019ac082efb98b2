package org.mpqoe.core.select;

/**
 * Chooses the paths of one joining client. Implementations are stateless apart from their
 * configuration and deterministic for a given problem (randomised ones use {@link
 * SelectionProblem#seed()}), so one instance may serve concurrent joins.
 */
public interface PathSelector {
  /** The CLI and REST name, e.g. {@code ga}, {@code pd-bw}. */
  String name();

  /** The paths for this join; {@link Selection#none} when no candidate is admissible. */
  Selection select(SelectionProblem problem);
}

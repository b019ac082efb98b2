package org.mpqoe.core.select;

import java.util.List;
import org.mpqoe.core.path.Path;

/**
 * The paths chosen for one client: {@code paths.get(i)} carries subflow i (i = 0 is the subflow of
 * the MP_CAPABLE handshake). Fewer paths than interfaces means the remaining subflows get no rules.
 * Plain forwarding repeats one path for every subflow.
 */
public record Selection(String algorithm, String client, List<Path> paths, Score score) {
  public Selection {
    paths = List.copyOf(paths);
  }

  /** No admissible path: the client gets no subflow rules. */
  public static Selection none(String algorithm, String client) {
    return new Selection(algorithm, client, List.of(), Score.EMPTY);
  }

  public boolean isEmpty() {
    return paths.isEmpty();
  }

  /** Distinct paths used. */
  public List<Path> distinctPaths() {
    return paths.stream().distinct().toList();
  }
}

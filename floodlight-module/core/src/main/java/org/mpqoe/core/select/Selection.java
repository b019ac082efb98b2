package org.mpqoe.core.select;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;
import org.mpqoe.core.path.Path;

/**
 * The paths chosen for one client, each with the client's interface whose subflow it carries:
 * {@code paths.get(j)} is for interface {@code interfaces.get(j)}. A client whose interfaces all
 * sit on one switch gets path i for interface i (i = 0 is the subflow of the MP_CAPABLE handshake,
 * the fastest path); plain forwarding repeats one path for every interface.
 *
 * <p>With interfaces on several switches, a path can only carry an interface attached at its first
 * switch: the interfaces attached at a switch take the chosen paths starting there in ascending
 * delay, in interface order ({@link SelectionProblem#selectionOf}). An interface without a path
 * (fewer paths than interfaces, or none starting at its switch) gets no rules: {@link #pathOf} is
 * null for it.
 */
public record Selection(
    String algorithm, String client, List<Path> paths, List<Integer> interfaces, Score score) {
  public Selection {
    paths = List.copyOf(paths);
    interfaces = List.copyOf(interfaces);
    if (interfaces.size() != paths.size()) {
      throw new IllegalArgumentException(
          "selection for "
              + client
              + ": "
              + paths.size()
              + " paths but "
              + interfaces.size()
              + " interfaces");
    }
    if (new HashSet<>(interfaces).size() != interfaces.size()
        || interfaces.stream().anyMatch(i -> i < 0)) {
      throw new IllegalArgumentException(
          "selection for " + client + ": interfaces " + interfaces + " must be distinct and >= 0");
    }
  }

  /** Path i for interface i. */
  public Selection(String algorithm, String client, List<Path> paths, Score score) {
    this(algorithm, client, paths, IntStream.range(0, paths.size()).boxed().toList(), score);
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

  /** The path of interface {@code i}, or null when it has none. */
  public Path pathOf(int i) {
    int j = interfaces.indexOf(i);
    return j < 0 ? null : paths.get(j);
  }

  /**
   * The paths by interface: entry i is interface i's path or null, up to the last interface with a
   * path. For path i for interface i this is {@link #paths}.
   */
  public List<Path> byInterface() {
    int n = interfaces.stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
    List<Path> out = new ArrayList<>(Collections.nCopies(n, (Path) null));
    for (int j = 0; j < paths.size(); j++) {
      out.set(interfaces.get(j), paths.get(j));
    }
    return out;
  }
}

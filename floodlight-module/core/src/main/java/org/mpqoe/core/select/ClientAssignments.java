package org.mpqoe.core.select;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.mpqoe.core.path.Path;
import org.mpqoe.core.topology.Host;

/**
 * The paths each client was given towards its server, and the path users |H_p| (eq. 9) that later
 * selections see: every distinct path of an assignment counts one user. The controller and the join
 * simulation keep their books here. Not thread-safe: its owner guards it.
 */
public final class ClientAssignments {

  /**
   * The paths chosen for one client towards one server, and how many connections use them. {@code
   * paths.get(i)} carries the subflow of the client's i-th interface ({@link
   * Selection#byInterface}); a null entry (none starting at its switch was chosen, a link failure
   * left no replacement, or QoMRA gave the reservation back) means that interface's subflow gets no
   * rules. The paths lead to the server's interface {@code serverInterface}, the one the selection
   * was made for (the address the MP_CAPABLE SYN targeted).
   */
  public record Assignment(
      Host client,
      Host server,
      int serverInterface,
      Selection selection,
      List<Path> paths,
      int connections) {
    public Assignment {
      paths = java.util.Collections.unmodifiableList(new ArrayList<>(paths));
    }

    /** The path of index i, or null when there is none. */
    public Path path(int i) {
      return i < paths.size() ? paths.get(i) : null;
    }

    /** The first index with a path (0 when none has one). */
    public int firstPathIndex() {
      for (int i = 0; i < paths.size(); i++) {
        if (paths.get(i) != null) {
          return i;
        }
      }
      return 0;
    }

    /** The distinct paths in use. */
    public List<Path> distinctPaths() {
      return paths.stream().filter(Objects::nonNull).distinct().toList();
    }

    /** True when one of the paths crosses {@code link}. */
    public boolean uses(int link) {
      return distinctPaths().stream().anyMatch(p -> p.uses(link));
    }

    public Assignment withConnections(int n) {
      return new Assignment(client, server, serverInterface, selection, paths, n);
    }

    public Assignment withPaths(Selection newSelection, List<Path> newPaths) {
      return new Assignment(client, server, serverInterface, newSelection, newPaths, connections);
    }
  }

  private record Key(String client, String server) {
    static Key of(Host client, Host server) {
      return new Key(client.name(), server.name());
    }
  }

  private final Map<Key, Assignment> byClient = new LinkedHashMap<>();
  private final Map<Path, Integer> users = new HashMap<>();

  /** The assignment of a client towards a server, or null. */
  public Assignment get(Host client, Host server) {
    return byClient.get(Key.of(client, server));
  }

  /** Records a client's selection towards the server's first interface. */
  public Assignment assign(Host client, Host server, Selection selection) {
    return assign(client, server, 0, selection);
  }

  /**
   * Records a client's selection towards the server's interface {@code serverInterface} (no
   * connection yet); its distinct paths gain one user each.
   */
  public Assignment assign(Host client, Host server, int serverInterface, Selection selection) {
    return put(
        new Assignment(client, server, serverInterface, selection, selection.byInterface(), 0));
  }

  /**
   * Records {@code next} in place of the client's current assignment (if any): paths it no longer
   * uses lose a user, new ones gain one.
   */
  public Assignment put(Assignment next) {
    Assignment old = byClient.put(Key.of(next.client(), next.server()), next);
    if (old != null) {
      old.distinctPaths().forEach(p -> users.merge(p, -1, Integer::sum));
    }
    next.distinctPaths().forEach(p -> users.merge(p, 1, Integer::sum));
    users.values().removeIf(n -> n == 0);
    return next;
  }

  /** Forgets a client's assignment; its paths lose their user. */
  public Assignment remove(Host client, Host server) {
    Assignment old = byClient.remove(Key.of(client, server));
    if (old != null) {
      old.distinctPaths().forEach(p -> users.merge(p, -1, Integer::sum));
      users.values().removeIf(n -> n == 0);
    }
    return old;
  }

  /** |H_p|: how many clients use {@code p}. */
  public int users(Path p) {
    return users.getOrDefault(p, 0);
  }

  /**
   * A copy of the users, without the client's own (what a selection for it again must see), to read
   * outside the owner's guard.
   */
  public Map<Path, Integer> usersExcept(Host client, Host server) {
    Map<Path, Integer> copy = new HashMap<>(users);
    Assignment own = get(client, server);
    if (own != null) {
      own.distinctPaths().forEach(p -> copy.merge(p, -1, Integer::sum));
    }
    return copy;
  }

  /** Every assignment, oldest first. */
  public List<Assignment> all() {
    return List.copyOf(byClient.values());
  }
}

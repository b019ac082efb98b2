package org.mpqoe.core.select;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mpqoe.core.path.Path;

/**
 * QoMRA's per-connection store (Algorithm 1, steps 6 and 8-9): for every flow (client towards
 * server) the paths QoMRA chose, their segment label lists, and the k shortest paths of its switch
 * pair (its demand, for link criticality). A new flow queries it first and paths are computed only
 * when nothing usable is stored. Entries outlive the flow, so a returning client is answered from
 * here. Not thread-safe on its own: {@link QomraBooks} guards it.
 */
public final class ConnectionStore {
  /**
   * One stored connection.
   *
   * @param flow the flow key ({@link SelectionProblem#flow()})
   * @param source the client's first-hop switch index
   * @param destination the server's first-hop switch index
   * @param paths the chosen paths, subflow order
   * @param labels the segment label list of each path (empty lists when no encoder was given)
   * @param shortest the first k shortest paths (by hops) between the two switches: the demand
   * @param complete false when admission cut the flow short of min(N, k, candidates) subflows; such
   *     an entry is recomputed when the flow comes back, as capacity may have freed
   */
  public record Entry(
      String flow,
      int source,
      int destination,
      List<Path> paths,
      List<List<Integer>> labels,
      List<Path> shortest,
      boolean complete) {
    public Entry {
      paths = List.copyOf(paths);
      labels = labels.stream().map(List::copyOf).toList();
      shortest = List.copyOf(shortest);
    }
  }

  private final Map<String, Entry> entries = new LinkedHashMap<>();

  public Entry get(String flow) {
    return entries.get(flow);
  }

  public void put(Entry e) {
    entries.put(e.flow(), e);
  }

  public Entry remove(String flow) {
    return entries.remove(flow);
  }

  /** Every entry, in first-store order. */
  public List<Entry> entries() {
    return List.copyOf(entries.values());
  }

  /** Forgets every stored answer. */
  public void clear() {
    entries.clear();
  }

  public int size() {
    return entries.size();
  }
}

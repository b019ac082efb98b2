package org.mpqoe.core.topology;

/**
 * A switch of a topology.
 *
 * @param index position in {@link Topology#switches()}, used as the vertex id in path arithmetic
 * @param name unique name from the descriptor
 * @param dpid OpenFlow datapath id
 */
public record SwitchNode(int index, String name, long dpid) {
  @Override
  public String toString() {
    return name;
  }
}

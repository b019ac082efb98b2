package net.floodlightcontroller.core.types;

import java.util.Objects;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

/** A switch port. */
public class NodePortTuple {
  private final DatapathId nodeId;
  private final OFPort portId;

  public NodePortTuple(DatapathId nodeId, OFPort portId) {
    this.nodeId = nodeId;
    this.portId = portId;
  }

  public DatapathId getNodeId() {
    return nodeId;
  }

  public OFPort getPortId() {
    return portId;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NodePortTuple t && nodeId.equals(t.nodeId) && portId.equals(t.portId);
  }

  @Override
  public int hashCode() {
    return Objects.hash(nodeId, portId);
  }

  @Override
  public String toString() {
    return nodeId + "/" + portId;
  }
}

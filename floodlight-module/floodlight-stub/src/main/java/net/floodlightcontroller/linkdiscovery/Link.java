package net.floodlightcontroller.linkdiscovery;

import java.util.Objects;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

/**
 * One direction of a discovered link and its latency in milliseconds. Equality is the two ends
 * only, as Floodlight keys its link maps.
 */
public class Link {
  private final DatapathId src;
  private final OFPort srcPort;
  private final DatapathId dst;
  private final OFPort dstPort;
  private final U64 latency;

  public Link(DatapathId srcId, OFPort srcPort, DatapathId dstId, OFPort dstPort, U64 latency) {
    this.src = srcId;
    this.srcPort = srcPort;
    this.dst = dstId;
    this.dstPort = dstPort;
    this.latency = latency;
  }

  public DatapathId getSrc() {
    return src;
  }

  public OFPort getSrcPort() {
    return srcPort;
  }

  public DatapathId getDst() {
    return dst;
  }

  public OFPort getDstPort() {
    return dstPort;
  }

  public U64 getLatency() {
    return latency;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Link l
        && src.equals(l.src)
        && srcPort.equals(l.srcPort)
        && dst.equals(l.dst)
        && dstPort.equals(l.dstPort);
  }

  @Override
  public int hashCode() {
    return Objects.hash(src, srcPort, dst, dstPort);
  }

  @Override
  public String toString() {
    return src + "/" + srcPort + " -> " + dst + "/" + dstPort;
  }
}

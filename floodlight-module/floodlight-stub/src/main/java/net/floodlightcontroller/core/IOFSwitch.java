package net.floodlightcontroller.core;

import java.util.Collection;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.U64;

/** A connected switch. */
public interface IOFSwitch extends IOFMessageWriter {
  Collection<OFPortDesc> getPorts();

  DatapathId getId();

  boolean isActive();

  OFFactory getOFFactory();

  /** Floodlight's estimate of the switch's one-way control latency, in ms. */
  U64 getLatency();
}

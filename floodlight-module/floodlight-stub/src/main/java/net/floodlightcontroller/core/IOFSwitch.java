package net.floodlightcontroller.core;

import java.util.Collection;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.types.DatapathId;

/** A connected switch. */
public interface IOFSwitch extends IOFMessageWriter {
  Collection<OFPortDesc> getPorts();

  DatapathId getId();

  boolean isActive();

  OFFactory getOFFactory();
}

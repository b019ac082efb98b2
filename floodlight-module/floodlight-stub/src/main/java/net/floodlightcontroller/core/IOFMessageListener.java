package net.floodlightcontroller.core;

import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFType;

/** Receives the OpenFlow messages of the types it registered for. */
public interface IOFMessageListener extends IListener<OFType> {
  Command receive(IOFSwitch sw, OFMessage msg, FloodlightContext cntx);
}

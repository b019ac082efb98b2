package net.floodlightcontroller.devicemanager;

import net.floodlightcontroller.core.types.NodePortTuple;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

/** A device's attachment point. */
public class SwitchPort extends NodePortTuple {
  public SwitchPort(DatapathId switchDPID, OFPort port) {
    super(switchDPID, port);
  }
}

package net.floodlightcontroller.core;

import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.types.DatapathId;

/** Switch life-cycle events. */
public interface IOFSwitchListener {
  void switchAdded(DatapathId switchId);

  void switchRemoved(DatapathId switchId);

  void switchActivated(DatapathId switchId);

  void switchPortChanged(DatapathId switchId, OFPortDesc port, PortChangeType type);

  void switchChanged(DatapathId switchId);

  void switchDeactivated(DatapathId switchId);
}

package net.floodlightcontroller.devicemanager;

import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;

/** A host the device manager learnt: its MAC, its addresses, where it is attached. */
public interface IDevice {
  MacAddress getMACAddress();

  IPv4Address[] getIPv4Addresses();

  SwitchPort[] getAttachmentPoints();
}

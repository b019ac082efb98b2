package net.floodlightcontroller.util;

import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.OFPort;

/** Helpers over openflowj messages. */
public class OFMessageUtils {
  private OFMessageUtils() {}

  /** The ingress port: a field of the message before OpenFlow 1.2, of its match from 1.2 on. */
  public static OFPort getInPort(OFPacketIn pi) {
    return pi.getVersion().compareTo(OFVersion.OF_12) < 0
        ? pi.getInPort()
        : pi.getMatch().get(MatchField.IN_PORT);
  }
}

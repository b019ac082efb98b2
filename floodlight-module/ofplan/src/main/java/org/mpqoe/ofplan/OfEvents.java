package org.mpqoe.ofplan;

import org.projectfloodlight.openflow.protocol.OFFlowRemovedReason;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;

/** How both runtimes read the switch events the core reacts to. */
public final class OfEvents {
  private OfEvents() {}

  /**
   * Whether a port can carry traffic: it still exists, its link is not down and it was not
   * administratively brought down.
   *
   * @param gone the switch (or the runtime's reading of it) reported the port deleted or down
   */
  public static boolean portUp(OFPortDesc port, boolean gone) {
    return !gone
        && !port.getState().contains(OFPortState.LINK_DOWN)
        && !port.getConfig().contains(OFPortConfig.PORT_DOWN);
  }

  /**
   * Whether a removed flow entry expired (idle or hard timeout, eviction) rather than being deleted
   * by a controller: only an expiry ends the subflow it carried. mpqoe's own deletions, and a table
   * wipe at a switch's handshake, must not.
   */
  public static boolean expired(OFFlowRemovedReason reason) {
    return reason != OFFlowRemovedReason.DELETE;
  }
}

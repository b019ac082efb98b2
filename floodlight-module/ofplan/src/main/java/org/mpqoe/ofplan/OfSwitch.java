package org.mpqoe.ofplan;

import java.util.List;
import org.projectfloodlight.openflow.protocol.OFMessage;

/**
 * What {@link PlanApplier} needs of a connected OpenFlow 1.3 switch, whichever runtime holds the
 * connection: send messages, send a barrier and learn when it completed.
 */
public interface OfSwitch {
  /** Writes the messages in this order, each with a fresh transaction id. */
  void send(List<? extends OFMessage> messages);

  /**
   * Sends a barrier request behind everything sent so far. {@code done} runs exactly once: when the
   * reply arrives, or when the request failed (the switch went away, the runtime gave up waiting),
   * so that nothing waits forever on a lost switch.
   */
  void barrier(Runnable done);
}

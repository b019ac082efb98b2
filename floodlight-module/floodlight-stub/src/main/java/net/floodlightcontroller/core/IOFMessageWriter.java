package net.floodlightcontroller.core;

import com.google.common.util.concurrent.ListenableFuture;
import java.util.Collection;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFRequest;

/** Writes messages to a switch. */
public interface IOFMessageWriter {
  boolean write(OFMessage m);

  /** The messages that were not written. */
  Collection<OFMessage> write(Iterable<OFMessage> msgList);

  <R extends OFMessage> ListenableFuture<R> writeRequest(OFRequest<R> request);
}

package org.mpqoe.openflow;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;

/**
 * A test double of an OpenFlow 1.3 switch: a plain socket that writes and reads openflowj messages.
 * Every read has a timeout, so a test never hangs.
 */
final class FakeSwitch implements AutoCloseable {
  static final OFFactory OF = OFFactories.getFactory(OFVersion.OF_13);

  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  private long xid = 1000;

  /** Drop the controller's periodic port statistics requests instead of returning them. */
  volatile boolean dropStatsRequests = true;

  /**
   * ECHO requests from the controller are answered, after this many ms, and not returned by the
   * read methods (as a switch's OpenFlow agent does; the controller sends them every second).
   */
  volatile int echoDelayMs;

  /** Echo requests answered so far. */
  volatile int echoes;

  FakeSwitch(InetSocketAddress controller) throws IOException {
    socket = new Socket();
    socket.connect(controller, 5000);
    socket.setSoTimeout(5000);
    socket.setTcpNoDelay(true);
    in = new DataInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  long nextXid() {
    return xid++;
  }

  synchronized void send(OFMessage m) throws IOException {
    ByteBuf b = Unpooled.buffer();
    m.writeTo(b);
    byte[] bytes = new byte[b.readableBytes()];
    b.readBytes(bytes);
    out.write(bytes);
    out.flush();
  }

  /** The next message (port statistics requests dropped if so set); fails after the timeout. */
  OFMessage read() throws Exception {
    while (true) {
      OFMessage m = readAny();
      if (!skipped(m)) {
        return m;
      }
    }
  }

  /** Whether the read methods skip {@code m}: echo requests (answered) and, if so set, stats. */
  private boolean skipped(OFMessage m) throws Exception {
    if (m instanceof OFEchoRequest e) {
      if (echoDelayMs > 0) {
        Thread.sleep(echoDelayMs);
      }
      send(OF.buildEchoReply().setXid(e.getXid()).setData(e.getData()).build());
      echoes++;
      return true;
    }
    return dropStatsRequests && m.getType() == OFType.STATS_REQUEST;
  }

  private OFMessage readAny() throws Exception {
    byte[] header = new byte[8];
    in.readFully(header);
    int length = ((header[2] & 0xff) << 8) | (header[3] & 0xff);
    byte[] msg = new byte[length];
    System.arraycopy(header, 0, msg, 0, 8);
    in.readFully(msg, 8, length - 8);
    return OFFactories.getGenericReader().readFrom(Unpooled.wrappedBuffer(msg));
  }

  /** The next message within {@code millis}, or null when none came. */
  OFMessage poll(int millis) throws Exception {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    try {
      while (true) {
        int left = (int) ((deadline - System.nanoTime()) / 1_000_000L);
        if (left <= 0) {
          return null;
        }
        socket.setSoTimeout(left);
        OFMessage m = readAny();
        if (!skipped(m)) {
          return m;
        }
      }
    } catch (SocketTimeoutException e) {
      return null;
    } finally {
      socket.setSoTimeout(5000);
    }
  }

  /** Reads until a message of {@code type}; the ones before it are added to {@code skipped}. */
  OFMessage readUntil(OFType type, List<OFMessage> skipped) throws Exception {
    while (true) {
      OFMessage m = read();
      if (m.getType() == type) {
        return m;
      }
      skipped.add(m);
    }
  }

  OFMessage readUntil(OFType type) throws Exception {
    return readUntil(type, new ArrayList<>());
  }

  /**
   * HELLO and FEATURES as a switch with this dpid; returns what the controller sent after the
   * FEATURES_REPLY up to and including its first barrier request (unanswered), or up to a quiet
   * period of {@code quietMillis} when no barrier comes.
   */
  List<OFMessage> handshake(long dpid, int quietMillis) throws Exception {
    OFMessage hello = read();
    if (hello.getType() != OFType.HELLO) {
      throw new AssertionError("expected HELLO, got " + hello);
    }
    send(OF.buildHello().setXid(nextXid()).build());
    OFMessage req = readUntil(OFType.FEATURES_REQUEST);
    send(
        OF.buildFeaturesReply()
            .setXid(req.getXid())
            .setDatapathId(DatapathId.of(dpid))
            .setNBuffers(0)
            .setNTables((short) 254)
            .build());
    List<OFMessage> after = new ArrayList<>();
    while (true) {
      OFMessage m = poll(quietMillis);
      if (m == null) {
        return after;
      }
      after.add(m);
      if (m.getType() == OFType.BARRIER_REQUEST) {
        return after;
      }
    }
  }

  void barrierReply(long xid) throws IOException {
    send(OF.buildBarrierReply().setXid(xid).build());
  }

  boolean closedByPeer() throws IOException {
    socket.setSoTimeout(3000);
    try {
      while (true) {
        byte[] header = new byte[8];
        in.readFully(header);
        int length = ((header[2] & 0xff) << 8) | (header[3] & 0xff);
        in.skipNBytes(length - 8);
      }
    } catch (EOFException e) {
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    }
  }

  boolean isClosed() {
    return socket.isClosed();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}

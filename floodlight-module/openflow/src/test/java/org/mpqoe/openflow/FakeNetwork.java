package org.mpqoe.openflow;

import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.mpqoe.core.control.Cookies;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsRequest;
import org.projectfloodlight.openflow.protocol.OFPortFeatures;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

/**
 * Fake switches wired to each other: each answers the controller's PORT_DESC request with its
 * ports, every barrier at once, and carries a packet-out's frame over a wired port to the switch at
 * the other end as a packet-in (the table-miss rule's behaviour), so LLDP probes come back as they
 * do on a real network. Every other message is kept per switch for the test to inspect.
 */
final class FakeNetwork implements AutoCloseable {
  /** curr_speed of every port: 10 Gbit/s, what Open vSwitch reports for a veth. */
  static final long SPEED_KBPS = 10_000_000;

  private record End(long dpid, int port) {}

  private final InetSocketAddress controller;
  private final Map<End, End> wires = new ConcurrentHashMap<>();
  private final Map<Long, List<Integer>> ports = new TreeMap<>();
  private final Map<Long, FakeSwitch> switches = new ConcurrentHashMap<>();
  private final Map<Long, BlockingQueue<OFMessage>> received = new ConcurrentHashMap<>();
  private final List<Thread> threads = new ArrayList<>();
  private final java.util.concurrent.ScheduledExecutorService cables =
      java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "fake-cables");
            t.setDaemon(true);
            return t;
          });
  private volatile int controlMs;
  private volatile int wireMs;

  FakeNetwork(InetSocketAddress controller) {
    this.controller = controller;
  }

  /** A switch with ports {@code 1..n}. */
  FakeNetwork switchWithPorts(long dpid, int n) {
    List<Integer> ps = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      ps.add(i);
    }
    ports.put(dpid, ps);
    return this;
  }

  /** A cable between two ports. */
  FakeNetwork wire(long a, int portA, long b, int portB) {
    wires.put(new End(a, portA), new End(b, portB));
    wires.put(new End(b, portB), new End(a, portA));
    return this;
  }

  /**
   * Delays, in ms: every switch answers an ECHO after {@code controlMs} (its control channel's
   * round trip), and an LLDP probe reaches the far switch's packet-in {@code controlMs + wireMs}
   * after its packet-out arrived (the two control-channel legs and the cable). Set before {@link
   * #start}.
   */
  FakeNetwork delays(int controlMs, int wireMs) {
    this.controlMs = controlMs;
    this.wireMs = wireMs;
    return this;
  }

  /** Connects every switch (handshake, first barrier answered) and starts answering. */
  FakeNetwork start() throws Exception {
    for (long dpid : ports.keySet()) {
      FakeSwitch s = new FakeSwitch(controller);
      s.dropStatsRequests = false;
      s.echoDelayMs = controlMs;
      List<OFMessage> setup = s.handshake(dpid, 3000);
      OFMessage barrier = setup.get(setup.size() - 1);
      s.barrierReply(barrier.getXid());
      switches.put(dpid, s);
      BlockingQueue<OFMessage> q = new LinkedBlockingQueue<>(setup);
      received.put(dpid, q);
      Thread t = new Thread(() -> serve(dpid, s, q), "fake-switch-" + dpid);
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    return this;
  }

  FakeSwitch get(long dpid) {
    return switches.get(dpid);
  }

  /** The next message of {@code type} the controller sent to {@code dpid}, null after 5 s. */
  OFMessage next(long dpid, OFType type) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline) {
      OFMessage m = received.get(dpid).poll(100, TimeUnit.MILLISECONDS);
      if (m != null && m.getType() == type) {
        return m;
      }
    }
    return null;
  }

  /** Drops what was received so far. */
  void clear() {
    received.values().forEach(BlockingQueue::clear);
  }

  /** Sends {@code frame} to the controller as a table-miss packet-in on {@code (dpid, port)}. */
  void packetIn(long dpid, int port, byte[] frame) throws Exception {
    switches
        .get(dpid)
        .send(
            FakeSwitch.OF
                .buildPacketIn()
                .setXid(switches.get(dpid).nextXid())
                .setBufferId(OFBufferId.NO_BUFFER)
                .setTotalLen(frame.length)
                .setReason(OFPacketInReason.NO_MATCH)
                .setTableId(TableId.of(0))
                .setCookie(U64.of(Cookies.of(Cookies.TABLE_MISS)))
                .setMatch(
                    FakeSwitch.OF
                        .buildMatch()
                        .setExact(MatchField.IN_PORT, OFPort.of(port))
                        .build())
                .setData(frame)
                .build());
  }

  private void serve(long dpid, FakeSwitch s, BlockingQueue<OFMessage> q) {
    try {
      while (true) {
        OFMessage m = s.poll(200);
        if (m == null) {
          continue;
        }
        if (m instanceof OFPortDescStatsRequest r) {
          s.send(
              FakeSwitch.OF
                  .buildPortDescStatsReply()
                  .setXid(r.getXid())
                  .setEntries(descs(dpid))
                  .build());
        } else if (m.getType() == OFType.STATS_REQUEST) {
          continue; // port statistics: not needed here
        } else if (m.getType() == OFType.BARRIER_REQUEST) {
          s.barrierReply(m.getXid());
          q.add(m);
        } else if (m instanceof OFPacketOut out && LldpDiscovery.isLldp(out.getData())) {
          for (OFAction a : out.getActions()) {
            End to = wires.get(new End(dpid, ((OFActionOutput) a).getPort().getPortNumber()));
            if (to != null && switches.containsKey(to.dpid()) && controlMs + wireMs == 0) {
              packetIn(to.dpid(), to.port(), out.getData());
            } else if (to != null && switches.containsKey(to.dpid())) {
              // On its way, the probe holds up nothing else (an echo in particular).
              cables.schedule(
                  () -> {
                    try {
                      packetIn(to.dpid(), to.port(), out.getData());
                    } catch (Exception e) {
                      // the far switch closed
                    }
                  },
                  controlMs + wireMs,
                  TimeUnit.MILLISECONDS);
            }
          }
        } else {
          q.add(m);
        }
      }
    } catch (SocketException | java.io.EOFException e) {
      // closed by the test or the controller
    } catch (Exception e) {
      if (!s.isClosed()) {
        throw new AssertionError("fake switch " + dpid + " failed", e);
      }
    }
  }

  private List<OFPortDesc> descs(long dpid) {
    List<OFPortDesc> out = new ArrayList<>();
    for (int p : ports.get(dpid)) {
      out.add(
          FakeSwitch.OF
              .buildPortDesc()
              .setPortNo(OFPort.of(p))
              .setName("s" + dpid + "-eth" + p)
              .setHwAddr(MacAddress.of(dpid << 8 | p))
              .setState(java.util.EnumSet.of(OFPortState.LIVE))
              .setCurr(java.util.EnumSet.of(OFPortFeatures.PF_10GB_FD))
              .setCurrSpeed(SPEED_KBPS)
              .setMaxSpeed(SPEED_KBPS)
              .build());
    }
    // The switch's LOCAL port: never a link or host port.
    out.add(
        FakeSwitch.OF
            .buildPortDesc()
            .setPortNo(OFPort.LOCAL)
            .setName("s" + dpid)
            .setHwAddr(MacAddress.of(dpid << 8))
            .build());
    return out;
  }

  @Override
  public void close() throws Exception {
    cables.shutdownNow();
    for (FakeSwitch s : switches.values()) {
      s.close();
    }
    for (Thread t : threads) {
      t.join(2000);
    }
  }
}

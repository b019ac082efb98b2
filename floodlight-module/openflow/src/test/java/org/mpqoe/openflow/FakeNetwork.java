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
import org.mpqoe.core.control.LldpProbes;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
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
import org.projectfloodlight.openflow.protocol.action.OFActionSetField;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionApplyActions;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.protocol.oxm.OFOxmEthDst;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

/**
 * Fake switches wired to each other: each answers the controller's PORT_DESC request with its
 * ports, every barrier at once, and carries a packet-out's frame over a wired port to the switch at
 * the other end as a packet-in (the table-miss rule's behaviour), so LLDP probes come back as they
 * do on a real network. A switch executes the flow adds of the reflect form it was sent (match
 * eth_dst, set_field eth_dst, output IN_PORT) on frames that reach it over a cable. Every other
 * message is kept per switch for the test to inspect.
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
  private final Map<Long, Integer> outMs = new ConcurrentHashMap<>();
  private final Map<Long, Integer> inMs = new ConcurrentHashMap<>();
  private final Map<Long, Map<MacAddress, MacAddress>> reflections = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicInteger reflected =
      new java.util.concurrent.atomic.AtomicInteger();

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

  /**
   * A switch's own time, in ms, which no ECHO sees: {@code outMs} from a packet-out to the frame on
   * the cable, {@code inMs} from a frame off the cable to its packet-in (an upcall, say). Set
   * before {@link #start}.
   */
  FakeNetwork processing(long dpid, int outMs, int inMs) {
    this.outMs.put(dpid, outMs);
    this.inMs.put(dpid, inMs);
    return this;
  }

  /** Connects every switch (handshake, first barrier answered) and starts answering. */
  FakeNetwork start() throws Exception {
    for (long dpid : ports.keySet()) {
      FakeSwitch s = new FakeSwitch(controller);
      s.dropStatsRequests = false;
      s.echoDelayMs = controlMs;
      List<OFMessage> setup = s.handshake(dpid, 3000);
      for (OFMessage m : setup) {
        if (m instanceof OFFlowAdd add) {
          learnReflection(dpid, add);
        }
      }
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
        } else if (m instanceof OFPacketOut out && LldpProbes.isLldp(out.getData())) {
          for (OFAction a : out.getActions()) {
            int port = ((OFActionOutput) a).getPort().getPortNumber();
            long leaves = outMs.getOrDefault(dpid, 0);
            carry(new End(dpid, port), out.getData(), leaves);
          }
        } else {
          if (m instanceof OFFlowAdd add) {
            learnReflection(dpid, add);
          }
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

  /**
   * A frame leaves {@code from} after {@code afterMs}: it crosses the cable ({@code wireMs}); at
   * the far switch a reflect rule it matches sends it straight back, else the table-miss entry
   * makes it a packet-in there after that switch's {@link #processing} time and the control
   * channel.
   */
  private void carry(End from, byte[] frame, long afterMs) {
    End to = wires.get(from);
    if (to == null || !switches.containsKey(to.dpid())) {
      return;
    }
    long arrives = afterMs + wireMs;
    byte[] back = reflect(to.dpid(), frame);
    if (back != null) {
      carry(to, back, arrives);
      return;
    }
    long packetIn = arrives + inMs.getOrDefault(to.dpid(), 0) + controlMs;
    Runnable send =
        () -> {
          try {
            packetIn(to.dpid(), to.port(), frame);
          } catch (Exception e) {
            // the far switch closed
          }
        };
    if (packetIn == 0) {
      send.run();
    } else {
      // On its way, the probe holds up nothing else (an echo in particular).
      cables.schedule(send, packetIn, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Learns a rule of the reflect form, as a switch would execute it: match eth_type and eth_dst,
   * apply set_field eth_dst and output IN_PORT.
   */
  private void learnReflection(long dpid, OFFlowAdd add) {
    MacAddress match = add.getMatch().get(MatchField.ETH_DST);
    if (match == null || add.getInstructions().size() != 1) {
      return;
    }
    if (!(add.getInstructions().get(0) instanceof OFInstructionApplyActions apply)) {
      return;
    }
    List<OFAction> actions = apply.getActions();
    if (actions.size() == 2
        && actions.get(0) instanceof OFActionSetField set
        && set.getField() instanceof OFOxmEthDst dst
        && actions.get(1) instanceof OFActionOutput o
        && o.getPort().equals(OFPort.IN_PORT)) {
      reflections.computeIfAbsent(dpid, k -> new ConcurrentHashMap<>()).put(match, dst.getValue());
    }
  }

  /** The frame as a reflect rule of {@code dpid} sends it back, null when none matches. */
  private byte[] reflect(long dpid, byte[] frame) {
    Map<MacAddress, MacAddress> rules = reflections.getOrDefault(dpid, Map.of());
    MacAddress to = rules.get(MacAddress.of(java.util.Arrays.copyOf(frame, 6)));
    if (to == null) {
      return null;
    }
    byte[] back = frame.clone();
    System.arraycopy(to.getBytes(), 0, back, 0, 6);
    reflected.incrementAndGet();
    return back;
  }

  /** Frames reflected by the switches so far. */
  int reflected() {
    return reflected.get();
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

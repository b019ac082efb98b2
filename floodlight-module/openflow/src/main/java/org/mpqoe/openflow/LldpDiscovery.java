package org.mpqoe.openflow;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.control.FlowAction;
import org.mpqoe.core.control.FlowPlan;
import org.mpqoe.core.topology.NetworkView.LinkView;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

/**
 * Link discovery for the standalone runtime, the way Floodlight's LinkDiscoveryManager does it: an
 * LLDP probe is sent out of every switch port (a packet-out), and a probe that comes back as a
 * packet-in on another switch's port is one direction of a link. Links not seen again within the
 * timeout, and links on a port that went down, are removed. Thread-safe.
 *
 * <p>A probe is an IEEE 802.1AB frame to the nearest-bridge address 01:80:c2:00:00:0e: chassis id
 * (subtype MAC address, the dpid's low 48 bits), port id (subtype port component, the 32-bit
 * OpenFlow port), TTL, and two organisation-specific TLVs under the OUI 00:26:e1 that Floodlight
 * also uses for the full dpid: subtype 0 the 64-bit dpid, subtype 0x6d ("m") the controller's send
 * time. A link's latency here is the last probe's receive time minus its send time, so it includes
 * the two control-channel legs and what both switches add; {@link NetworkDiscovery} passes each one
 * to the link state tracker ({@link org.mpqoe.core.control.LinkDelayEstimator}).
 *
 * <p><b>Reflected probes</b> take those out. A reflect probe is the same frame sent to the
 * nearest-non-TPMR-bridge address 01:80:c2:00:00:03; every switch carries {@link #reflectRule},
 * which rewrites that address to the nearest-customer-bridge address 01:80:c2:00:00:00 and sends
 * the frame back out of the port it came in on (OFPP_IN_PORT), in the data plane. At the sending
 * switch the reflected frame matches no rule but the table-miss entry and comes to the controller
 * on the port it left: that round trip, with the one-way probes of both directions, gives the
 * link's delay with every switch's own time cancelled. The rewritten address is the mark: the
 * reflect rule matches only the request address, so a reflected frame is never reflected again, and
 * only one-way probes (to 01:80:c2:00:00:0e) make links. The three are IEEE 802.1AB's LLDP
 * addresses, so each frame stays a well-formed LLDPDU that no 802.1 bridge forwards, and one-way
 * probes keep the address they always had (the table-miss path at the receiving switch, as a
 * reflected frame has at the sender).
 */
public final class LldpDiscovery {
  /** LLDP's EtherType. */
  public static final int ETHERTYPE = 0x88cc;

  /** A probe's kind, by its destination address. */
  public enum Kind {
    /** To 01:80:c2:00:00:0e: comes to the controller from the far switch; makes links. */
    ONE_WAY(0x0e),
    /** To 01:80:c2:00:00:03: the far switch sends it back ({@link #reflectRule}). */
    REFLECT(0x03),
    /** To 01:80:c2:00:00:00: a reflect probe on its way back, marked by the far switch. */
    REFLECTED(0x00);

    final byte[] destination;

    Kind(int last) {
      destination = new byte[] {0x01, (byte) 0x80, (byte) 0xc2, 0, 0, (byte) last};
    }

    MacAddress address() {
      return MacAddress.of(destination);
    }
  }

  /**
   * Priority of {@link #reflectRule}: above every priority the control plane's configuration can
   * give (at most 65534), so no rule of the core comes before it; its match (LLDP to a reserved
   * address) overlaps with none of them anyway.
   */
  public static final int REFLECT_PRIORITY = 65535;

  private static final int OUI = 0x0026e1;
  private static final int SUBTYPE_DPID = 0x00;
  private static final int SUBTYPE_SENT = 0x6d;
  private static final int TTL_SECONDS = 120;

  /** A parsed probe: where it was sent from and, when it carries one, when. */
  public record Probe(long dpid, int port, OptionalLong sentNanos) {}

  /** What a received probe changed in the link table. */
  public enum Change {
    /** A link that was not known (or moved to other ports). */
    ADDED,
    /** A known link, seen again (its latency updated). */
    REFRESHED
  }

  /** A link and what happened to it. */
  public record Update(Change change, LinkView link) {}

  private record End(long dpid, int port) {}

  private record Entry(LinkView link, long seenNanos) {}

  private final long timeoutNanos;
  private final Map<End, Entry> bySource = new LinkedHashMap<>();

  /**
   * @param timeoutNanos how long a link lives without being seen again (Floodlight: 35 s with a 15
   *     s probe interval)
   */
  public LldpDiscovery(long timeoutNanos) {
    if (timeoutNanos <= 0) {
      throw new IllegalArgumentException("timeout must be positive");
    }
    this.timeoutNanos = timeoutNanos;
  }

  /** The one-way probe frame for a switch port, stamped with {@code nowNanos}. */
  public static byte[] frame(long dpid, int port, long nowNanos) {
    return frame(Kind.ONE_WAY, dpid, port, nowNanos);
  }

  /** A probe frame of {@code kind} for a switch port, stamped with {@code nowNanos}. */
  public static byte[] frame(Kind kind, long dpid, int port, long nowNanos) {
    ByteBuffer b = ByteBuffer.allocate(14 + 9 + 7 + 4 + 14 + 14 + 2);
    b.put(kind.destination);
    b.put(mac(dpid));
    b.putShort((short) ETHERTYPE);
    tlv(b, 1, 7).put((byte) 4).put(mac(dpid));
    tlv(b, 2, 5).put((byte) 2).putInt(port);
    tlv(b, 3, 2).putShort((short) TTL_SECONDS);
    org(b, SUBTYPE_DPID).putLong(dpid);
    org(b, SUBTYPE_SENT).putLong(nowNanos);
    b.putShort((short) 0);
    return b.array();
  }

  /** The packet-out that sends a probe out of {@code port} (OfTranslator makes it OpenFlow). */
  public static FlowPlan.PacketOut probe(long dpid, int port, long nowNanos) {
    return probe(Kind.ONE_WAY, dpid, port, nowNanos);
  }

  /** The packet-out that sends a probe of {@code kind} out of {@code port}. */
  public static FlowPlan.PacketOut probe(Kind kind, long dpid, int port, long nowNanos) {
    return new FlowPlan.PacketOut(
        dpid,
        FlowAction.PORT_CONTROLLER,
        frame(kind, dpid, port, nowNanos),
        List.of(new FlowAction.Output(port)));
  }

  /**
   * The rule every switch gets at its handshake: a reflect probe (LLDP to the {@link Kind#REFLECT}
   * address) goes back out of the port it came in on, its destination rewritten to the {@link
   * Kind#REFLECTED} address. Its cookie is the table-miss entries' ({@link Cookies#TABLE_MISS}),
   * the kind of the standing rules a runtime installs at the handshake: no plan deletes that kind
   * by cookie, none counts or expires it (no timeouts, no removal notice), and the wipe when a
   * switch reconnects is followed by a new handshake.
   */
  public static OFFlowAdd reflectRule(OFFactory f) {
    return f.buildFlowAdd()
        .setTableId(TableId.of(0))
        .setPriority(REFLECT_PRIORITY)
        .setCookie(U64.of(Cookies.of(Cookies.TABLE_MISS)))
        .setMatch(
            f.buildMatch()
                .setExact(MatchField.ETH_TYPE, EthType.of(ETHERTYPE))
                .setExact(MatchField.ETH_DST, Kind.REFLECT.address())
                .build())
        .setInstructions(
            List.of(
                f.instructions()
                    .applyActions(
                        List.of(
                            f.actions().setField(f.oxms().ethDst(Kind.REFLECTED.address())),
                            f.actions().output(OFPort.IN_PORT, 0)))))
        .build();
  }

  /** The kind of an LLDP frame by its destination address; empty for any other address. */
  public static Optional<Kind> kind(byte[] frame) {
    if (frame.length < 6) {
      return Optional.empty();
    }
    for (Kind k : Kind.values()) {
      if (java.util.Arrays.equals(frame, 0, 6, k.destination, 0, 6)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  /** True when the frame is LLDP (ours or anyone's): never a packet for the control plane. */
  public static boolean isLldp(byte[] frame) {
    return frame.length >= 14 && ((frame[12] & 0xff) << 8 | (frame[13] & 0xff)) == ETHERTYPE;
  }

  /**
   * The probe in {@code frame}; empty for anything else, including LLDP from hosts or other
   * controllers (no dpid TLV) and malformed TLVs.
   */
  public static Optional<Probe> parse(byte[] frame) {
    if (!isLldp(frame)) {
      return Optional.empty();
    }
    ByteBuffer b = ByteBuffer.wrap(frame, 14, frame.length - 14);
    Integer port = null;
    Long dpid = null;
    OptionalLong sent = OptionalLong.empty();
    try {
      while (b.remaining() >= 2) {
        int header = b.getShort() & 0xffff;
        int type = header >>> 9;
        int length = header & 0x1ff;
        if (type == 0) {
          break;
        }
        ByteBuffer v = b.slice(b.position(), length);
        b.position(b.position() + length);
        if (type == 2 && length == 5 && v.get() == 2) {
          port = v.getInt();
        } else if (type == 127 && length == 12) {
          int oui = (v.get() & 0xff) << 16 | (v.get() & 0xff) << 8 | (v.get() & 0xff);
          int subtype = v.get() & 0xff;
          if (oui == OUI && subtype == SUBTYPE_DPID) {
            dpid = v.getLong();
          } else if (oui == OUI && subtype == SUBTYPE_SENT) {
            sent = OptionalLong.of(v.getLong());
          }
        }
      }
    } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
      return Optional.empty();
    }
    if (port == null || dpid == null || port <= 0) {
      return Optional.empty();
    }
    return Optional.of(new Probe(dpid, port, sent));
  }

  /**
   * A packet-in on {@code (dpid, inPort)} at {@code nowNanos}: when it is one of our reflect probes
   * back where it was sent from, its time from packet-out to packet-in (ms). A reflect probe that
   * came to the controller unreflected (the far switch has no reflect rule) and a reflected frame
   * on another port are empty.
   */
  public static OptionalDouble reflectedIn(long dpid, int inPort, byte[] frame, long nowNanos) {
    Optional<Probe> parsed = parse(frame);
    if (parsed.isEmpty() || kind(frame).orElse(null) != Kind.REFLECTED) {
      return OptionalDouble.empty();
    }
    Probe p = parsed.get();
    if (p.dpid() != dpid
        || p.port() != inPort
        || p.sentNanos().isEmpty()
        || nowNanos < p.sentNanos().getAsLong()) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of((nowNanos - p.sentNanos().getAsLong()) / 1e6);
  }

  /**
   * A packet-in on {@code (dpid, inPort)} at {@code nowNanos}. When it is one of our one-way
   * probes, the link from the probe's port to this port is recorded (replacing any other link from
   * that port or into this one: a port has one peer) and returned; anything else (reflect probes
   * included) changes nothing.
   */
  public synchronized Optional<Update> received(
      long dpid, int inPort, byte[] frame, long nowNanos) {
    Optional<Probe> parsed = parse(frame);
    if (parsed.isEmpty() || inPort <= 0 || kind(frame).orElse(null) != Kind.ONE_WAY) {
      return Optional.empty();
    }
    Probe p = parsed.get();
    if (p.dpid() == dpid && p.port() == inPort) {
      return Optional.empty();
    }
    double latency =
        p.sentNanos().isPresent() && nowNanos >= p.sentNanos().getAsLong()
            ? (nowNanos - p.sentNanos().getAsLong()) / 1e6
            : Double.NaN;
    LinkView link = new LinkView(p.dpid(), p.port(), dpid, inPort, latency);
    End source = new End(p.dpid(), p.port());
    Entry old = bySource.get(source);
    boolean same = old != null && old.link().dstDpid() == dpid && old.link().dstPort() == inPort;
    if (!same) {
      bySource.values().removeIf(e -> e.link().dstDpid() == dpid && e.link().dstPort() == inPort);
    }
    bySource.put(source, new Entry(link, nowNanos));
    return Optional.of(new Update(same ? Change.REFRESHED : Change.ADDED, link));
  }

  /** Removes and returns the links not seen within the timeout before {@code nowNanos}. */
  public synchronized List<LinkView> expire(long nowNanos) {
    return expire(nowNanos, l -> false);
  }

  /**
   * Like {@link #expire(long)}, but the links {@code held} accepts do not expire: they count as
   * seen at {@code nowNanos} (a link on a port that is down carries no probe; it gets a full
   * timeout to be seen again once the port is up).
   */
  public synchronized List<LinkView> expire(
      long nowNanos, java.util.function.Predicate<LinkView> held) {
    bySource.replaceAll((k, e) -> held.test(e.link()) ? new Entry(e.link(), nowNanos) : e);
    return removeIf(e -> nowNanos - e.seenNanos() > timeoutNanos);
  }

  /** True when the link from {@code (dpid, port)} to {@code (peerDpid, peerPort)} is known. */
  public synchronized boolean knows(long dpid, int port, long peerDpid, int peerPort) {
    Entry e = bySource.get(new End(dpid, port));
    return e != null && e.link().dstDpid() == peerDpid && e.link().dstPort() == peerPort;
  }

  /** True when a known link starts or ends at {@code (dpid, port)}. */
  public synchronized boolean linkAt(long dpid, int port) {
    return bySource.values().stream()
        .anyMatch(
            e ->
                (e.link().srcDpid() == dpid && e.link().srcPort() == port)
                    || (e.link().dstDpid() == dpid && e.link().dstPort() == port));
  }

  /** A port went down: removes and returns the links from or into it. */
  public synchronized List<LinkView> portDown(long dpid, int port) {
    return removeIf(
        e ->
            (e.link().srcDpid() == dpid && e.link().srcPort() == port)
                || (e.link().dstDpid() == dpid && e.link().dstPort() == port));
  }

  /** A switch disconnected: removes and returns the links from or into it. */
  public synchronized List<LinkView> switchGone(long dpid) {
    return removeIf(e -> e.link().srcDpid() == dpid || e.link().dstDpid() == dpid);
  }

  /** The directed links known now, in the order they were first seen. */
  public synchronized List<LinkView> links() {
    return bySource.values().stream().map(Entry::link).toList();
  }

  private List<LinkView> removeIf(java.util.function.Predicate<Entry> gone) {
    List<LinkView> removed = new ArrayList<>();
    for (Iterator<Entry> it = bySource.values().iterator(); it.hasNext(); ) {
      Entry e = it.next();
      if (gone.test(e)) {
        removed.add(e.link());
        it.remove();
      }
    }
    return removed;
  }

  private static byte[] mac(long dpid) {
    byte[] m = new byte[6];
    for (int i = 0; i < 6; i++) {
      m[i] = (byte) (dpid >>> (8 * (5 - i)));
    }
    return m;
  }

  private static ByteBuffer tlv(ByteBuffer b, int type, int length) {
    return b.putShort((short) (type << 9 | length));
  }

  private static ByteBuffer org(ByteBuffer b, int subtype) {
    return tlv(b, 127, 12)
        .put((byte) (OUI >>> 16))
        .put((byte) (OUI >>> 8))
        .put((byte) OUI)
        .put((byte) subtype);
  }
}

package org.mpqoe.core.control;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * mpqoe's LLDP probes, for both runtimes: the frames, the rule that reflects them and the schedule
 * of a round. The standalone runtime sends one-way and reflect probes (its link discovery and the
 * link delays); the Floodlight module sends reflect probes only, next to Floodlight's own one-way
 * probes. Either way {@link LinkDelayEstimator} turns the times into delays.
 *
 * <p>A probe is an IEEE 802.1AB frame: chassis id (subtype MAC address, the dpid's low 48 bits),
 * port id (subtype port component, the 32-bit OpenFlow port), TTL, and two organisation-specific
 * TLVs under the OUI 00:26:e1 that Floodlight also uses for the full dpid: subtype 0 the 64-bit
 * dpid, subtype 0x6d ("m") the controller's send time ({@code System.nanoTime}). That send-time TLV
 * makes a probe mpqoe's ({@link #isOurs}): Floodlight stamps its probes under subtype 1.
 *
 * <p><b>Reflected probes.</b> A one-way probe goes to the nearest-bridge address 01:80:c2:00:00:0e
 * and comes to the controller from the far switch's table-miss entry. A reflect probe is the same
 * frame to the nearest-non-TPMR-bridge address 01:80:c2:00:00:03; every switch carries {@link
 * #reflectRule}, which rewrites that address to the nearest-customer-bridge address
 * 01:80:c2:00:00:00 and sends the frame back out of the port it came in on (OFPP_IN_PORT), in the
 * data plane. At the sending switch the reflected frame matches no rule but the table-miss entry
 * and comes to the controller on the port it left: that round trip, with the one-way times of both
 * directions, gives the link's delay with every switch's own time cancelled. The rewritten address
 * is the mark: the reflect rule matches only the request address, so a reflected frame is never
 * reflected again. The three are IEEE 802.1AB's LLDP addresses, so each frame stays a well-formed
 * LLDPDU that no 802.1 bridge forwards.
 */
public final class LldpProbes {
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

    private final byte[] destination;

    Kind(int last) {
      destination = new byte[] {0x01, (byte) 0x80, (byte) 0xc2, 0, 0, (byte) last};
    }

    /** The destination address, 48 bits. */
    public long address() {
      long a = 0;
      for (byte b : destination) {
        a = a << 8 | (b & 0xff);
      }
      return a;
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

  /** A switch port to probe. */
  public record Port(long dpid, int port) {}

  /**
   * One probe of a round: of {@code kind}, out of {@code port}, {@code delayNanos} after its start.
   */
  public record Timed(long delayNanos, Kind kind, Port port) {}

  private LldpProbes() {}

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

  /** The packet-out that sends a one-way probe out of {@code port}. */
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
   * The rule every switch gets (the standalone runtime at its handshake, the Floodlight module when
   * it becomes active): a reflect probe (LLDP to the {@link Kind#REFLECT} address) goes back out of
   * the port it came in on, its destination rewritten to the {@link Kind#REFLECTED} address. Its
   * cookie is the table-miss entries' ({@link Cookies#TABLE_MISS}), the kind of the standing rules
   * a runtime installs at the handshake: no plan deletes that kind by cookie, none counts or
   * expires it (no timeouts, no removal notice), and the wipe when a switch reconnects is followed
   * by a new handshake.
   */
  public static FlowRule reflectRule(long dpid) {
    return new FlowRule(
        dpid,
        0,
        REFLECT_PRIORITY,
        new FlowMatch.EthDestination(ETHERTYPE, Kind.REFLECT.address()),
        List.of(
            new FlowAction.SetEthDestination(Kind.REFLECTED.address()),
            new FlowAction.Output(FlowAction.PORT_IN_PORT)),
        0,
        Cookies.of(Cookies.TABLE_MISS),
        false);
  }

  /**
   * One round of probes out of {@code ports}, spread over {@code intervalNanos}, one at a time: for
   * each kind in {@code kinds}, in that order, a probe out of every port in the order given. A
   * probe then waits behind no other at its switch (a packet-out, a datapath miss, a packet-in each
   * take milliseconds in a slow switch), and the kinds of a port meet the same switch: what each
   * switch adds is the same in all of them and cancels ({@link LinkDelayEstimator}). The first
   * probe is due at once.
   */
  public static List<Timed> round(List<Port> ports, long intervalNanos, List<Kind> kinds) {
    int n = ports.size();
    long slot = intervalNanos / Math.max(1, (long) kinds.size() * n);
    List<Timed> out = new ArrayList<>(kinds.size() * n);
    for (int k = 0; k < kinds.size(); k++) {
      for (int i = 0; i < n; i++) {
        out.add(new Timed(((long) k * n + i) * slot, kinds.get(k), ports.get(i)));
      }
    }
    return out;
  }

  /** The kind of an LLDP frame by its destination address; empty for any other address. */
  public static Optional<Kind> kind(byte[] frame) {
    if (frame.length < 6) {
      return Optional.empty();
    }
    for (Kind k : Kind.values()) {
      if (Arrays.equals(frame, 0, 6, k.destination, 0, 6)) {
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
   * True when the frame is one of mpqoe's probes, of any kind, wherever it shows up: it parses and
   * carries mpqoe's send time. Floodlight's probes (their port id is 2 bytes, their time under
   * another subtype) and anyone else's LLDP are not.
   */
  public static boolean isOurs(byte[] frame) {
    return parse(frame).filter(p -> p.sentNanos().isPresent()).isPresent()
        && kind(frame).isPresent();
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

package org.mpqoe.floodlight;

import com.google.common.util.concurrent.SettableFuture;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import net.floodlightcontroller.core.IOFSwitch;
import net.floodlightcontroller.core.internal.IOFSwitchService;
import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFBarrierRequest;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;

/** Floodlight's interfaces as dynamic proxies: only the methods a test names exist. */
final class Fakes {
  private Fakes() {}

  /** A proxy of {@code type} answering the named methods; any other call fails the test. */
  static <T> T proxy(Class<T> type, Map<String, Function<Object[], Object>> methods) {
    Object p =
        Proxy.newProxyInstance(
            Fakes.class.getClassLoader(),
            new Class<?>[] {type},
            (self, m, args) -> {
              switch (m.getName()) {
                case "toString":
                  return "fake " + type.getSimpleName();
                case "hashCode":
                  return System.identityHashCode(self);
                case "equals":
                  return self == args[0];
                default:
                  Function<Object[], Object> f = methods.get(m.getName());
                  if (f == null) {
                    throw new UnsupportedOperationException(type.getSimpleName() + "." + m);
                  }
                  return f.apply(args == null ? new Object[0] : args);
              }
            });
    return type.cast(p);
  }

  /** A switch that records what is written to it; barrier replies are completed by the test. */
  static final class FakeSwitch {
    final long dpid;
    final OFFactory factory;
    final List<OFMessage> written = new ArrayList<>();
    final List<SettableFuture<OFBarrierReply>> barriers = new ArrayList<>();

    /** What {@code getPorts} answers (Floodlight's port descriptions of the switch). */
    final List<org.projectfloodlight.openflow.protocol.OFPortDesc> ports =
        new java.util.concurrent.CopyOnWriteArrayList<>();

    final IOFSwitch sw;

    FakeSwitch(long dpid) {
      this(dpid, OFVersion.OF_13);
    }

    @SuppressWarnings("unchecked")
    FakeSwitch(long dpid, OFVersion version) {
      this.dpid = dpid;
      this.factory = OFFactories.getFactory(version);
      this.sw =
          proxy(
              IOFSwitch.class,
              Map.of(
                  "getId", a -> DatapathId.of(dpid),
                  "getOFFactory", a -> factory,
                  "isActive", a -> true,
                  "getLatency", a -> org.projectfloodlight.openflow.types.U64.ZERO,
                  "getPorts", a -> ports,
                  "write",
                      a -> {
                        if (a[0] instanceof OFMessage m) {
                          record(m);
                          return true;
                        }
                        ((Iterable<OFMessage>) a[0]).forEach(this::record);
                        return List.of();
                      },
                  "writeRequest",
                      a -> {
                        record((OFMessage) a[0]);
                        SettableFuture<OFBarrierReply> f = SettableFuture.create();
                        synchronized (this) {
                          barriers.add(f);
                        }
                        return f;
                      }));
    }

    private synchronized void record(OFMessage m) {
      written.add(m);
    }

    synchronized List<OFType> types() {
      return written.stream().map(OFMessage::getType).toList();
    }

    synchronized List<OFMessage> ofType(OFType t) {
      return written.stream().filter(m -> m.getType() == t).toList();
    }

    /** Answers every barrier sent so far. */
    void answerBarriers() {
      List<SettableFuture<OFBarrierReply>> open;
      synchronized (this) {
        open = new ArrayList<>(barriers);
      }
      for (SettableFuture<OFBarrierReply> f : open) {
        f.set(factory.buildBarrierReply().build());
      }
    }

    synchronized void clear() {
      written.clear();
      barriers.clear();
    }

    /** Xids of the barrier requests sent so far. */
    synchronized List<Long> barrierXids() {
      return written.stream()
          .filter(m -> m instanceof OFBarrierRequest)
          .map(OFMessage::getXid)
          .toList();
    }
  }

  /** An IOFSwitchService over some fake switches (all active). */
  static IOFSwitchService switchService(FakeSwitch... switches) {
    return switchService(Map.of(), switches);
  }

  /** The same, with more methods (e.g. addOFSwitchListener). */
  static IOFSwitchService switchService(
      Map<String, Function<Object[], Object>> more, FakeSwitch... switches) {
    Map<Long, FakeSwitch> byDpid = new TreeMap<>();
    for (FakeSwitch s : switches) {
      byDpid.put(s.dpid, s);
    }
    Function<Object[], Object> get =
        a -> {
          FakeSwitch s = byDpid.get(((DatapathId) a[0]).getLong());
          return s == null ? null : s.sw;
        };
    Map<String, Function<Object[], Object>> methods = new HashMap<>(more);
    methods.put("getActiveSwitch", get);
    methods.put(
        "getAllSwitchMap",
        a -> {
          Map<DatapathId, IOFSwitch> out = new java.util.LinkedHashMap<>();
          byDpid.forEach((d, s) -> out.put(DatapathId.of(d), s.sw));
          return out;
        });
    methods.put("getSwitch", get);
    methods.put(
        "getAllSwitchDpids",
        a -> {
          Set<DatapathId> out = new HashSet<>();
          byDpid.keySet().forEach(d -> out.add(DatapathId.of(d)));
          return out;
        });
    return proxy(IOFSwitchService.class, methods);
  }

  // ------------------------------------------------------------------------------------ frames

  /** SYN with MP_CAPABLE v1 (RFC 8684: no key in the SYN). */
  static byte[] capableSyn(int src, int dst, int srcPort, int dstPort) {
    return tcpSyn(src, dst, srcPort, dstPort, new byte[] {30, 4, 0x01, 0x01});
  }

  /** SYN with MP_JOIN (RFC 8684: subtype 1, address id, receiver's token, sender's nonce). */
  static byte[] joinSyn(int src, int dst, int srcPort, int dstPort, int token) {
    ByteBuffer o = ByteBuffer.allocate(12);
    o.put((byte) 30).put((byte) 12).put((byte) 0x10).put((byte) 1).putInt(token).putInt(42);
    return tcpSyn(src, dst, srcPort, dstPort, o.array());
  }

  /** A SYN without options: plain TCP. */
  static byte[] plainSyn(int src, int dst, int srcPort, int dstPort) {
    return tcpSyn(src, dst, srcPort, dstPort, new byte[0]);
  }

  private static byte[] tcpSyn(int src, int dst, int srcPort, int dstPort, byte[] opts) {
    int tcpLen = 20 + opts.length;
    ByteBuffer b = ByteBuffer.allocate(14 + 20 + tcpLen);
    b.put(new byte[] {2, 0, 0, 0, 1, 1})
        .put(new byte[] {2, 0, 0, 0, 1, 11})
        .putShort((short) 0x0800);
    b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + tcpLen)).putInt(0x40000000);
    b.put((byte) 64).put((byte) 6).putShort((short) 0).putInt(src).putInt(dst);
    b.putShort((short) srcPort).putShort((short) dstPort).putInt(1).putInt(0);
    b.put((byte) ((tcpLen / 4) << 4)).put((byte) 0x02).putShort((short) 64240).putInt(0);
    b.put(opts);
    return b.array();
  }

  /** A broadcast ARP request. */
  static byte[] arpRequest(int senderIp, int targetIp) {
    ByteBuffer b = ByteBuffer.allocate(42);
    b.put(new byte[] {-1, -1, -1, -1, -1, -1});
    b.put(new byte[] {2, 0, 0, 0, 1, 11}).putShort((short) 0x0806);
    b.putShort((short) 1).putShort((short) 0x0800).put((byte) 6).put((byte) 4).putShort((short) 1);
    b.put(new byte[] {2, 0, 0, 0, 1, 11}).putInt(senderIp).put(new byte[6]).putInt(targetIp);
    return b.array();
  }
}

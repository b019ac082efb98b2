package org.mpqoe.floodlight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FloodlightLldpTest {
  private static void tlv(ByteArrayOutputStream out, int type, byte[] value) {
    int head = type << 9 | value.length;
    out.write(head >>> 8);
    out.write(head & 0xff);
    out.writeBytes(value);
  }

  private static byte[] oui(int subtype, long v) {
    return ByteBuffer.allocate(12)
        .put(new byte[] {0, 0x26, (byte) 0xe1, (byte) subtype})
        .putLong(v)
        .array();
  }

  /** A probe laid out as Floodlight sends it (chassis, port, TTL, DPID, controller, stamp). */
  static byte[] probe(int etherType, long dpid, int port, long stamp) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {1, (byte) 0x80, (byte) 0xc2, 0, 0, 0x0e});
    out.writeBytes(new byte[] {2, 0, 0, 0, 0, 1});
    out.write(etherType >>> 8);
    out.write(etherType & 0xff);
    tlv(out, 1, new byte[] {4, 0, 0, 0, 0, 0, 1});
    tlv(out, 2, new byte[] {2, (byte) (port >>> 8), (byte) port});
    tlv(out, 3, new byte[] {0, 0x78});
    tlv(out, 127, oui(0, dpid));
    tlv(out, 12, ByteBuffer.allocate(8).putLong(77).array());
    tlv(out, 12, new byte[] {1});
    tlv(out, 127, oui(1, stamp));
    tlv(out, 0, new byte[0]);
    return out.toByteArray();
  }

  @Test
  void readsSenderPortAndStampOfLldpAndBddp() {
    assertEquals(
        Optional.of(new FloodlightLldp.Probe(0x64, 3, 123_456)),
        FloodlightLldp.parse(probe(FloodlightLldp.LLDP, 0x64, 3, 123_456)));
    assertEquals(
        Optional.of(new FloodlightLldp.Probe(-2, 65_000, 9)),
        FloodlightLldp.parse(probe(FloodlightLldp.BDDP, -2, 65_000, 9)));
  }

  @Test
  void anythingElseIsNoProbeAndNeverAnError() {
    byte[] good = probe(FloodlightLldp.LLDP, 1, 1, 1);
    assertTrue(FloodlightLldp.parse(null).isEmpty());
    assertTrue(FloodlightLldp.parse(new byte[13]).isEmpty());
    byte[] ipv4 = good.clone();
    ipv4[12] = 0x08;
    ipv4[13] = 0;
    assertTrue(FloodlightLldp.parse(ipv4).isEmpty(), "another EtherType");
    for (int cut = 14; cut < good.length - 2; cut++) {
      Optional<FloodlightLldp.Probe> p = FloodlightLldp.parse(Arrays.copyOf(good, cut));
      assertTrue(p.isEmpty(), "cut at " + cut + ": the stamp is the last TLV");
    }
    byte[] noStamp = good.clone();
    noStamp[noStamp.length - 2 - 12 + 3] = 7; // the stamp's subtype
    assertTrue(FloodlightLldp.parse(noStamp).isEmpty(), "without a stamp");
    byte[] longLength = good.clone();
    longLength[15] = (byte) 0xff; // the chassis TLV claims more than the frame holds
    assertTrue(FloodlightLldp.parse(longLength).isEmpty());
  }

  @Test
  void elapsedIsNowMinusTheStampPlusTheSendersLatency() {
    FloodlightLldp.Probe p = new FloodlightLldp.Probe(1, 1, 10_003);
    assertEquals(9.0, FloodlightLldp.elapsedMs(p, 10_009_000_000L, 3));
    // Now keeps its fraction of a ms; only the stamp is whole ms.
    assertEquals(9.25, FloodlightLldp.elapsedMs(p, 10_009_250_000L, 3), 1e-9);
  }
}

package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class LldpProbesTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void theProbeIsAnLldpFrameWithDpidPortAndSendTime() {
    byte[] f = LldpProbes.frame(0x0102030405060708L, 0x10002, 0x1122334455667788L);
    assertEquals(
        "0180c200000e" // nearest bridge
            + "030405060708" // source: the dpid's low 48 bits
            + "88cc"
            + "0207"
            + "04"
            + "030405060708" // chassis id, MAC subtype
            + "0405"
            + "02"
            + "00010002" // port id, port component subtype, 32-bit port
            + "0602"
            + "0078" // TTL 120 s
            + "fe0c"
            + "0026e1"
            + "00"
            + "0102030405060708" // dpid
            + "fe0c"
            + "0026e1"
            + "6d"
            + "1122334455667788" // send time
            + "0000",
        HexFormat.of().formatHex(f));
    assertEquals(
        Optional.of(
            new LldpProbes.Probe(
                0x0102030405060708L, 0x10002, OptionalLong.of(0x1122334455667788L))),
        LldpProbes.parse(f));
  }

  @Test
  void anythingButOurProbeParsesToNothing() {
    byte[] probe = LldpProbes.frame(5, 2, 0);
    assertTrue(LldpProbes.isLldp(probe));
    byte[] ipv4 = probe.clone();
    ipv4[12] = 0x08;
    ipv4[13] = 0x00;
    assertFalse(LldpProbes.isLldp(ipv4));
    assertEquals(Optional.empty(), LldpProbes.parse(ipv4));
    byte[] hostLldp = Arrays.copyOf(probe, 14 + 9 + 7 + 4);
    assertTrue(LldpProbes.isLldp(hostLldp));
    assertEquals(Optional.empty(), LldpProbes.parse(hostLldp), "no dpid TLV");
    for (int cut = 0; cut < 14 + 9 + 7 + 4 + 14; cut++) {
      assertEquals(Optional.empty(), LldpProbes.parse(Arrays.copyOf(probe, cut)), "cut at " + cut);
    }
    byte[] lying = probe.clone();
    lying[14 + 9 + 7 + 4 + 1] = (byte) 0xff; // the dpid TLV claims more bytes than there are
    assertEquals(Optional.empty(), LldpProbes.parse(lying));
  }

  @Test
  void onlyOurProbesOfAnyKindAreOurs() {
    for (LldpProbes.Kind k : LldpProbes.Kind.values()) {
      assertTrue(LldpProbes.isOurs(LldpProbes.frame(k, 1, 4, 7)), k.toString());
    }
    byte[] probe = LldpProbes.frame(1, 4, 7);
    byte[] floodlights = probe.clone();
    floodlights[14 + 9 + 7 + 4 + 14 + 5] = 0x01; // the send time under Floodlight's subtype 1
    assertTrue(LldpProbes.parse(floodlights).isPresent());
    assertFalse(LldpProbes.isOurs(floodlights), "no mpqoe send time");
    byte[] elsewhere = probe.clone();
    elsewhere[5] = 0x01; // to another address than our three
    assertFalse(LldpProbes.isOurs(elsewhere));
    assertFalse(LldpProbes.isOurs(Arrays.copyOf(probe, 14 + 9 + 7 + 4)), "a host's LLDP");
  }

  @Test
  void theReflectRuleTurnsRequestsIntoReflectedFramesBackOutOfTheirPort() {
    FlowRule r = LldpProbes.reflectRule(7);
    assertEquals(7, r.dpid());
    assertEquals(0, r.table());
    assertEquals(LldpProbes.REFLECT_PRIORITY, r.priority());
    assertTrue(
        LldpProbes.REFLECT_PRIORITY > ControlConfig.defaults().subflowPriority(),
        "above every rule of the core");
    assertEquals(new FlowMatch.EthDestination(0x88cc, 0x0180c2000003L), r.match());
    assertEquals(
        List.of(
            new FlowAction.SetEthDestination(0x0180c2000000L), new FlowAction.Output(0xfffffff8)),
        r.actions());
    assertEquals(Cookies.of(Cookies.TABLE_MISS), r.cookie());
    assertEquals(0, r.idleTimeoutS());
    assertFalse(r.notifyRemoval(), "nothing counts it");
    assertEquals(0x0180c200000eL, LldpProbes.Kind.ONE_WAY.address());
  }

  @Test
  void aRoundSpreadsItsProbesOneAtATimeKindAfterKind() {
    List<LldpProbes.Port> ports =
        List.of(new LldpProbes.Port(1, 1), new LldpProbes.Port(1, 2), new LldpProbes.Port(2, 1));
    List<LldpProbes.Kind> both = List.of(LldpProbes.Kind.ONE_WAY, LldpProbes.Kind.REFLECT);
    List<LldpProbes.Timed> r = LldpProbes.round(ports, 6 * SECOND, both);
    assertEquals(6, r.size());
    for (int i = 0; i < 6; i++) {
      assertEquals(i * SECOND, r.get(i).delayNanos(), "slot " + i);
      assertEquals(ports.get(i % 3), r.get(i).port());
      assertEquals(both.get(i / 3), r.get(i).kind());
    }
    List<LldpProbes.Timed> reflectOnly =
        LldpProbes.round(ports, 6 * SECOND, List.of(LldpProbes.Kind.REFLECT));
    assertEquals(
        List.of(0L, 2 * SECOND, 4 * SECOND),
        reflectOnly.stream().map(LldpProbes.Timed::delayNanos).toList());
    assertEquals(List.of(), LldpProbes.round(List.of(), SECOND, both));
  }
}

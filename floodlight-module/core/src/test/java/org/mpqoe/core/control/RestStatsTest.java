package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** {@code GET /mpqoe/stats}: what the control plane did, as counted. */
class RestStatsTest {
  private final MptcpControlPlane cp =
      new MptcpControlPlane(MptcpRouterTest.TOPO, ControlConfig.defaults().withAlgorithm("exact"));

  /** An MP_CAPABLE v1 SYN (option kind 30, length 4, subtype 0, version 1, flag H). */
  static byte[] capableSyn(int src, int dst, int srcPort, int dstPort) {
    ByteBuffer b = ByteBuffer.allocate(14 + 20 + 24);
    b.put(new byte[6]).put(new byte[6]).putShort((short) 0x0800);
    b.put((byte) 0x45).put((byte) 0).putShort((short) 44).putInt(0);
    b.put((byte) 64).put((byte) 6).putShort((short) 0).putInt(src).putInt(dst);
    b.putShort((short) srcPort).putShort((short) dstPort).putInt(1).putInt(0);
    b.put((byte) 0x60).put((byte) 0x02).putShort((short) 1000).putInt(0);
    b.put(new byte[] {30, 4, 0x01, 0x01});
    return b.array();
  }

  JsonNode stats() throws Exception {
    RestApi.Response r = cp.rest().handle("GET", "/mpqoe/stats", null);
    assertEquals(200, r.status(), r.json());
    return new ObjectMapper().readTree(r.json());
  }

  @Test
  void countsPacketInsRulesSelectionsAndStepTimes() throws Exception {
    JsonNode before = stats();
    assertEquals(0, before.get("selections").asLong(), "the warm-up is not counted");
    assertEquals(0, before.get("packetIns").get("mptcp").asLong());
    Reaction syn =
        cp.packetIn(1, 4, capableSyn(MptcpRouterTest.CL1, MptcpRouterTest.SRV, 5000, 80));
    assertEquals(Reaction.Kind.MPTCP, syn.kind(), syn.log());
    cp.packetIn(
        1, 4, MptcpControlPlaneTest.tcp(MptcpRouterTest.CL1, MptcpRouterTest.SRV, 4000, 22, 0x02));
    cp.packetIn(1, 4, MptcpControlPlaneTest.ipv4Udp(MptcpRouterTest.CL1, MptcpRouterTest.SRV));
    long cookie = syn.plan().installs().get(0).cookie();
    cp.flowRemoved(1, cookie, true);
    cp.flowRemoved(1, cookie, false);

    JsonNode s = stats();
    assertEquals(1, s.get("packetIns").get("mptcp").asLong());
    assertEquals(2, s.get("packetIns").get("plain").asLong());
    assertEquals(1, s.get("handshakeSteps").get("capable_syn").asLong());
    assertEquals(1, s.get("handshakeSteps").get("none").asLong(), "the plain TCP SYN");
    assertEquals(1, s.get("parse").get("mp_capable").asLong());
    assertEquals(2, s.get("parse").get("lists").asLong(), "two TCP option lists walked");
    JsonNode rules = s.get("rules");
    int plainRules =
        cp.packetIn(
                1,
                4,
                MptcpControlPlaneTest.tcp(MptcpRouterTest.CL1, MptcpRouterTest.SRV, 4001, 22, 0x02))
            .plan()
            .installs()
            .size();
    int udpRules = plainRules; // the same path, one rule per switch
    assertEquals(
        syn.plan().installs().size() + plainRules + udpRules, rules.get("installed").asLong());
    assertEquals(1, rules.get("expired").asLong());
    assertEquals(1, rules.get("deleted").asLong());
    assertEquals(1, s.get("selections").asLong());
    JsonNode t = s.get("timingsUs");
    assertEquals(3, t.get("packet_in").get("count").asLong());
    assertEquals(3, t.get("classification").get("count").asLong());
    assertEquals(1, t.get("selection").get("count").asLong());
    assertEquals(1, t.get("plan").get("count").asLong());
    JsonNode p = t.get("packet_in");
    assertTrue(p.get("p50").asDouble() > 0);
    assertTrue(p.get("p50").asDouble() <= p.get("p99").asDouble());
    assertTrue(p.get("p99").asDouble() <= p.get("max").asDouble());
    assertEquals(405, cp.rest().handle("PUT", "/mpqoe/stats", "{}").status());
  }
}

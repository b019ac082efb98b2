package org.mpqoe.core.mptcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpqoe.core.mptcp.Fixtures.Fixture;
import org.mpqoe.core.mptcp.Fixtures.FixtureFrame;
import org.mpqoe.core.mptcp.MptcpHandshake.CapableAck;
import org.mpqoe.core.mptcp.MptcpHandshake.CapableSyn;
import org.mpqoe.core.mptcp.MptcpHandshake.CapableSynAck;
import org.mpqoe.core.mptcp.MptcpHandshake.JoinAck;
import org.mpqoe.core.mptcp.MptcpHandshake.JoinSyn;
import org.mpqoe.core.mptcp.MptcpHandshake.JoinSynAck;
import org.mpqoe.core.mptcp.ParseStats.Counter;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.packet.Frame;
import org.mpqoe.core.packet.ParseResult;
import org.mpqoe.core.packet.Tcp;

/**
 * The captured (v1, Linux) and hand-made (v0) handshakes: every frame parses and classifies as
 * labelled, the keys are where they should be, and what MPTCP derives from them matches what the
 * other host sent: the server's token in the MP_JOIN SYN, its IDSN in its first data mapping, the
 * HMACs of the MP_JOIN.
 */
class HandshakeFixturesTest {

  static List<Fixture> fixtures() {
    return Fixtures.all();
  }

  @Test
  void theFixturesAreThere() {
    List<Fixture> all = fixtures();
    assertEquals(3, all.size());
    assertEquals("captured", all.get(0).json().get("source").asText());
    assertEquals("hand-made", all.get(2).json().get("source").asText());
  }

  @ParameterizedTest
  @MethodSource("fixtures")
  void everyFrameParsesAndClassifiesAsLabelled(Fixture fixture) {
    ParseStats stats = new ParseStats();
    for (FixtureFrame f : fixture.frames()) {
      Frame frame = Frame.parse(f.bytes());
      assertEquals(ParseResult.OK, frame.result(), f.label());
      Tcp tcp = frame.tcp();
      assertTrue(frame.hasTcp(), f.label());
      boolean fromClient = f.direction().equals("client-to-server");
      assertEquals(fixture.serverPort(), fromClient ? tcp.dstPort() : tcp.srcPort(), f.label());
      String clientIp = fixture.json().get("client").get("interfaces").get(f.iface()).asText();
      assertEquals(
          clientIp, Addresses.formatIpv4(fromClient ? frame.ipv4().src() : frame.ipv4().dst()));
      assertEquals(f.expect(), MptcpHandshake.classify(tcp, stats).step().name(), f.label());
    }
    assertEquals(0, stats.malformed());
    assertEquals(0, stats.get(Counter.HANDSHAKE_FLAGS_MISMATCH));
    StatsInvariants.check(stats);
  }

  @ParameterizedTest
  @MethodSource("fixtures")
  void keysAreWhereTheVersionPutsThem(Fixture fixture) {
    int version = fixture.version();
    long clientKey = fixture.derivedKey("clientKey");
    long serverKey = fixture.derivedKey("serverKey");

    CapableSyn syn = assertInstanceOf(CapableSyn.class, classify(fixture, "CAPABLE_SYN"));
    assertEquals(version, syn.version());
    assertEquals(version == 0 ? (Long) clientKey : null, syn.clientKey());

    CapableSynAck synAck =
        assertInstanceOf(CapableSynAck.class, classify(fixture, "CAPABLE_SYNACK"));
    assertEquals(version, synAck.version());
    assertEquals(serverKey, synAck.serverKey());

    CapableAck ack = assertInstanceOf(CapableAck.class, classify(fixture, "CAPABLE_ACK"));
    assertEquals(clientKey, ack.clientKey());
    assertEquals(serverKey, ack.serverKey());
    assertNull(ack.dataLevelLength());
  }

  @ParameterizedTest
  @MethodSource("fixtures")
  void theJoinSynCarriesTheTokenOfTheServerKeyFromTheSynAck(Fixture fixture) {
    long serverKey =
        ((CapableSynAck) classify(fixture, "CAPABLE_SYNACK")).serverKey(); // from the wire
    JoinSyn join = assertInstanceOf(JoinSyn.class, classify(fixture, "JOIN_SYN"));
    assertEquals(Tokens.hex(Tokens.token(serverKey, fixture.version())), Tokens.hex(join.token()));
    assertEquals(
        fixture.json().get("derived").get("serverToken").asText(), Tokens.hex(join.token()));
  }

  @ParameterizedTest
  @MethodSource("fixtures")
  void theJoinHmacsAreOverTheKeysAndNonces(Fixture fixture) throws Exception {
    String algorithm = fixture.version() == 0 ? "HmacSHA1" : "HmacSHA256";
    long clientKey = fixture.derivedKey("clientKey");
    long serverKey = fixture.derivedKey("serverKey");
    JoinSyn syn = (JoinSyn) classify(fixture, "JOIN_SYN");
    JoinSynAck synAck = assertInstanceOf(JoinSynAck.class, classify(fixture, "JOIN_SYNACK"));
    JoinAck ack = assertInstanceOf(JoinAck.class, classify(fixture, "JOIN_ACK"));
    // RFC 8684 3.2: B (the server) MACs with Key-B + Key-A over R-B + R-A, A the other way round.
    byte[] serverMac = hmac(algorithm, serverKey, clientKey, synAck.nonce(), syn.nonce());
    byte[] clientMac = hmac(algorithm, clientKey, serverKey, syn.nonce(), synAck.nonce());
    assertEquals(ByteBuffer.wrap(serverMac).getLong(), synAck.truncatedHmac());
    assertArrayEquals(Arrays.copyOf(clientMac, 20), ack.hmac());
  }

  @Test
  void theCapturedIdsnsMatchTheFirstDataMappings() {
    for (String name : List.of("mptcp-v1-basic.json", "mptcp-v1-csum-backup.json")) {
      Fixture fixture = Fixtures.load(name);
      long clientKey = fixture.derivedKey("clientKey");
      long serverKey = fixture.derivedKey("serverKey");

      Tcp clientData = Frame.parse(fixture.frame("CAPABLE_ACK_DATA").bytes()).tcp();
      CapableAck ack =
          assertInstanceOf(CapableAck.class, MptcpHandshake.classify(clientData, null));
      assertEquals(clientData.payloadLength(), ack.dataLevelLength(), name);

      // The server's first segment echoes the client's first 16 bytes: its DSS mapping starts at
      // its IDSN + 1 and acknowledges the client's IDSN + 1 + 16 (both 64-bit in Linux).
      long[] dss = dss(Frame.parse(fixture.frame("SERVER_FIRST_DATA").bytes()).tcp());
      assertEquals(Tokens.idsn(serverKey, 1) + 1, dss[1], name);
      assertEquals(Tokens.idsn(clientKey, 1) + 1 + clientData.payloadLength(), dss[0], name);
    }
  }

  @Test
  void theCapturedVariantsDifferAsConfigured() {
    Fixture basic = Fixtures.load("mptcp-v1-basic.json");
    Fixture csum = Fixtures.load("mptcp-v1-csum-backup.json");
    assertEquals(0x01, ((CapableSyn) classify(basic, "CAPABLE_SYN")).flags());
    assertEquals(0x81, ((CapableSyn) classify(csum, "CAPABLE_SYN")).flags());
    assertEquals(false, ((JoinSyn) classify(basic, "JOIN_SYN")).backup());
    assertEquals(true, ((JoinSyn) classify(csum, "JOIN_SYN")).backup());
    assertEquals(22, optionLength(basic, "CAPABLE_ACK_DATA"));
    assertEquals(24, optionLength(csum, "CAPABLE_ACK_DATA"));
  }

  private static int optionLength(Fixture fixture, String label) {
    Tcp tcp = Frame.parse(fixture.frame(label).bytes()).tcp();
    return TcpOptions.parse(tcp.options()).mpCapable().orElseThrow().length();
  }

  private static MptcpHandshake classify(Fixture fixture, String label) {
    return MptcpHandshake.classify(Frame.parse(fixture.frame(label).bytes()).tcp(), null);
  }

  /** Data ACK and data sequence number of the DSS option (RFC 8684 3.3), both 64-bit here. */
  private static long[] dss(Tcp tcp) {
    TcpOption option =
        TcpOptions.parse(tcp.options()).options().stream()
            .filter(o -> o.kind() == 30 && (tcp.options()[o.offset() + 2] & 0xff) >> 4 == 2)
            .findFirst()
            .orElseThrow();
    ByteBuffer b = ByteBuffer.wrap(tcp.options(), option.offset(), option.length());
    b.position(option.offset() + 3);
    int flags = b.get() & 0xff;
    assertEquals(0x0f, flags & 0x0f, "data ACK and mapping, both 64-bit");
    return new long[] {b.getLong(), b.getLong()};
  }

  private static byte[] hmac(String algorithm, long key1, long key2, int nonce1, int nonce2)
      throws Exception {
    Mac mac = Mac.getInstance(algorithm);
    mac.init(new SecretKeySpec(ByteBuffer.allocate(16).putLong(key1).putLong(key2).array(), "x"));
    return mac.doFinal(ByteBuffer.allocate(8).putInt(nonce1).putInt(nonce2).array());
  }
}

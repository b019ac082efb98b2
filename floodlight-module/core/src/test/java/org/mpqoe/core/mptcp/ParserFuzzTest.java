package org.mpqoe.core.mptcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import org.mpqoe.core.mptcp.MptcpHandshake.None;
import org.mpqoe.core.mptcp.MptcpHandshake.Reason;
import org.mpqoe.core.mptcp.ParseStats.Counter;
import org.mpqoe.core.packet.ArpReply;
import org.mpqoe.core.packet.Frame;
import org.mpqoe.core.packet.Ipv4;
import org.mpqoe.core.packet.ParseResult;
import org.mpqoe.core.packet.Tcp;

/**
 * Feeds 1,000,000 random and mutated inputs (1,000 jqwik tries of 1,000 inputs, each drawn from the
 * try's seed) to {@link Frame#parse}, {@link TcpOptions#parse} and {@link MptcpHandshake#classify}:
 * nothing may throw, and what they return must agree with the counters. Inputs: random bytes; the
 * fixture frames with bit flips, truncations, corrupted length bytes and header fields; option
 * lists assembled from real and broken options.
 */
class ParserFuzzTest {
  static final int TRIES = 1_000;
  static final int INPUTS_PER_TRY = 1_000;
  private static final List<byte[]> OPTIONS =
      Fixtures.allFrames().stream().map(f -> Frame.parse(f).tcp().options()).toList();

  /** The fixture frames, untagged and with an 802.1Q tag, and an ARP reply. */
  private static final List<byte[]> FRAMES =
      Stream.concat(
              Fixtures.allFrames().stream().flatMap(f -> Stream.of(f, tagged(f))),
              Stream.of(ArpReply.build(0x020000000500L, 0x0a4d0102, 0x020000000c00L, 0x0a4d0101)))
          .toList();

  private static final AtomicLong INPUTS = new AtomicLong();
  private static final long START = System.nanoTime();
  private static final Map<ParseResult, Long> RESULTS = new EnumMap<>(ParseResult.class);
  private static final Map<Counter, Long> COUNTS = new EnumMap<>(Counter.class);

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF)
  void parsersNeverThrowAndCountersAddUp(@ForAll long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    ParseStats direct = new ParseStats();
    ParseStats viaClassify = new ParseStats();
    Map<TcpOptions.Stop, Long> stops = new EnumMap<>(TcpOptions.Stop.class);
    long options = 0;
    long decoded = 0;
    long mismatches = 0;
    for (int i = 0; i < INPUTS_PER_TRY; i++) {
      byte[] frameBytes = frame(r);
      byte[] optionBytes = options(r);
      int flags = r.nextInt(4) == 0 ? r.nextInt(256) : new int[] {0x02, 0x12, 0x10, 0x18}[i % 4];
      try {
        Frame frame = Frame.parse(frameBytes);
        checkFrame(frame);
        MptcpHandshake.classify(frame.tcp(), null);
        RESULTS.merge(frame.result(), 1L, Long::sum);
        TcpOptions parsed = TcpOptions.parse(optionBytes, direct);
        stops.merge(parsed.stop(), 1L, Long::sum);
        options += parsed.options().size();
        decoded += parsed.mptcp().size();
        MptcpHandshake h = MptcpHandshake.classify(flags, optionBytes, viaClassify);
        if (h instanceof None n && n.reason() == Reason.FLAGS_MISMATCH) {
          mismatches++;
        }
      } catch (RuntimeException | AssertionError e) {
        throw new AssertionError(
            "seed "
                + seed
                + " input "
                + i
                + ": frame "
                + HexFormat.of().formatHex(frameBytes)
                + " options "
                + HexFormat.of().formatHex(optionBytes)
                + " flags "
                + flags,
            e);
      }
    }
    INPUTS.addAndGet(INPUTS_PER_TRY);
    direct.snapshot().forEach((c, v) -> COUNTS.merge(c, v, Long::sum));
    COUNTS.merge(Counter.HANDSHAKE_FLAGS_MISMATCH, mismatches, Long::sum);

    StatsInvariants.check(direct);
    StatsInvariants.check(viaClassify);
    assertEquals(INPUTS_PER_TRY, direct.get(Counter.LISTS));
    for (TcpOptions.Stop stop : TcpOptions.Stop.values()) {
      assertEquals(
          stops.getOrDefault(stop, 0L), direct.get(Counter.valueOf(stop.name())), stop.name());
    }
    assertEquals(options, direct.get(Counter.OTHER_KIND) + direct.get(Counter.MPTCP));
    assertEquals(decoded, direct.get(Counter.MP_CAPABLE) + direct.get(Counter.MP_JOIN));
    assertEquals(mismatches, viaClassify.get(Counter.HANDSHAKE_FLAGS_MISMATCH));
    for (Counter c : Counter.values()) {
      if (c != Counter.HANDSHAKE_FLAGS_MISMATCH) {
        assertEquals(direct.get(c), viaClassify.get(c), "classify walks the same options");
      }
    }
  }

  @AfterContainer
  static void report() {
    double seconds = (System.nanoTime() - START) / 1e9;
    System.out.printf("ParserFuzzTest: %,d inputs in %.1f s%n", INPUTS.get(), seconds);
    System.out.println("ParserFuzzTest: frames " + RESULTS);
    System.out.println("ParserFuzzTest: options " + COUNTS);
    assertTrue(INPUTS.get() >= (long) TRIES * INPUTS_PER_TRY, "ran every input");
  }

  /** What a parsed frame promises about itself. */
  private static void checkFrame(Frame f) {
    if (f.tcp() != null) {
      Tcp tcp = f.tcp();
      assertEquals(ParseResult.OK, f.result());
      assertEquals((tcp.dataOffset() - 5) * 4, tcp.options().length);
      assertTrue(tcp.payloadLength() >= 0);
      assertTrue(tcp.dataOffset() >= 5 && tcp.dataOffset() <= 15);
    }
    Ipv4 ip = f.ipv4();
    if (f.result() == ParseResult.OK && ip != null && ip.protocol() == Ipv4.PROTOCOL_TCP) {
      assertTrue(f.tcp() != null, "an OK TCP packet has its header");
    }
    if (f.result().wellFormed() && f.result() != ParseResult.EMPTY) {
      assertTrue(f.ethernet() != null);
    }
  }

  // ---- inputs ---------------------------------------------------------------------------------

  private static byte[] frame(SplittableRandom r) {
    return switch (r.nextInt(4)) {
      case 0 -> randomBytes(r, r.nextInt(100));
      default -> mutate(r, FRAMES.get(r.nextInt(FRAMES.size())).clone(), 54);
    };
  }

  private static byte[] options(SplittableRandom r) {
    return switch (r.nextInt(4)) {
      case 0 -> randomBytes(r, r.nextInt(44));
      case 1 -> mutate(r, OPTIONS.get(r.nextInt(OPTIONS.size())).clone(), 0);
      default -> assembled(r);
    };
  }

  /** 1-3 mutations; {@code optionsAt} is where option lengths are worth corrupting. */
  private static byte[] mutate(SplittableRandom r, byte[] b, int optionsAt) {
    for (int n = 1 + r.nextInt(3); n > 0 && b.length > 0; n--) {
      switch (r.nextInt(6)) {
        case 0 -> b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
        case 1 -> b = Arrays.copyOf(b, r.nextInt(b.length + 1));
        case 2 -> b[r.nextInt(b.length)] = (byte) r.nextInt(256);
        case 3 -> {
          int at = optionsAt + 1 + r.nextInt(Math.max(1, b.length - optionsAt));
          if (at < b.length) {
            b[at] = (byte) new int[] {0, 1, 2, 3, 4, 12, 20, 22, 24, 40, 255}[r.nextInt(11)];
          }
        }
        case 4 -> {
          // header fields of untagged IPv4/TCP: IHL/version, total length, data offset, proto
          int at = new int[] {14, 16, 17, 20, 21, 23, 46}[r.nextInt(7)];
          if (optionsAt > 0 && at < b.length) {
            b[at] = (byte) r.nextInt(256);
          }
        }
        default -> b = Arrays.copyOf(b, b.length + r.nextInt(8)); // padding
      }
    }
    return b;
  }

  private static final String[] PIECES = {
    "01",
    "00",
    "020405b4",
    "0402",
    "080ae912f6c000000000",
    "03030a",
    "1e040101",
    "1e040181",
    "1e0c0101e21d20500a04d4a9",
    "1e0c0081e21d20500a04d4a9",
    "1e1401015dd151b8050f4ff8e21d20500a04d4a9",
    "1e1601015dd151b8050f4ff8e21d20500a04d4a90010",
    "1e0c10016be47e35060af2d4",
    "1e101000f6a76cd5064f6cc28a522468",
    "1e181000f8233d6b775ee10a40cee0a140c56f7aa3cc1336",
    "1e0820010000",
    "1e02",
    "1e01",
    "1e",
    "1e0390",
    "1e0300",
    "1e0310",
    "0800",
    "fe"
  };

  private static final byte[][] PIECE_BYTES =
      Arrays.stream(PIECES).map(HexFormat.of()::parseHex).toArray(byte[][]::new);

  /** Real and broken options strung together, up to about 48 bytes. */
  private static byte[] assembled(SplittableRandom r) {
    byte[] out = new byte[48];
    int n = 0;
    while (n < 40 && r.nextInt(6) != 0) {
      byte[] piece = PIECE_BYTES[r.nextInt(PIECE_BYTES.length)];
      int take = Math.min(piece.length, out.length - n);
      System.arraycopy(piece, 0, out, n, take);
      n += take;
    }
    return Arrays.copyOf(out, n);
  }

  private static byte[] tagged(byte[] frame) {
    byte[] b = new byte[frame.length + 4];
    System.arraycopy(frame, 0, b, 0, 12);
    b[12] = (byte) 0x81;
    b[15] = 7;
    System.arraycopy(frame, 12, b, 16, frame.length - 12);
    return b;
  }

  private static byte[] randomBytes(SplittableRandom r, int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }
}

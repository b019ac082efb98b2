package org.mpqoe.core.mptcp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.mpqoe.core.mptcp.MptcpOption.MpCapable;
import org.mpqoe.core.mptcp.MptcpOption.MpJoin;
import org.mpqoe.core.mptcp.MptcpOption.MpJoin.Stage;
import org.mpqoe.core.mptcp.ParseStats.Counter;

/**
 * The options of one TCP header, walked kind by kind as Linux's {@code mptcp_get_options} does:
 * kind 0 ends the list, kind 1 is one byte of padding, every other kind has a length byte of at
 * least 2 that must fit in what is left. A bad or missing length stops the walk (nothing after it
 * can be trusted); a kind-30 option whose content is wrong is skipped and the walk goes on. Never
 * throws.
 *
 * @param options every well-formed option except NOP and end-of-list, in order
 * @param mptcp the MP_CAPABLE and MP_JOIN options among them, decoded, in order
 * @param stop why the walk ended
 */
public record TcpOptions(List<TcpOption> options, List<MptcpOption> mptcp, Stop stop) {

  /** How a walk ended. */
  public enum Stop {
    END_OF_LIST,
    EXHAUSTED,
    BAD_LENGTH,
    TRUNCATED
  }

  /** Parses the whole array, without counting. */
  public static TcpOptions parse(byte[] options) {
    return parse(options, null);
  }

  /** Parses the whole array (null: none) and counts into stats (null: no counting). */
  public static TcpOptions parse(byte[] options, ParseStats stats) {
    return parse(options, 0, options == null ? 0 : options.length, stats);
  }

  /**
   * Parses {@code length} bytes of {@code buf} from {@code offset}. A slice outside the array is
   * treated as truncated.
   */
  public static TcpOptions parse(byte[] buf, int offset, int length, ParseStats stats) {
    Walk walk = new Walk(stats);
    if (buf == null && length == 0) {
      return walk.end(Stop.EXHAUSTED);
    }
    if (buf == null || offset < 0 || length < 0 || offset > buf.length - length) {
      return walk.end(Stop.TRUNCATED);
    }
    int i = offset;
    int end = offset + length;
    while (i < end) {
      int kind = buf[i] & 0xff;
      if (kind == TcpOption.END) {
        return walk.end(Stop.END_OF_LIST);
      }
      if (kind == TcpOption.NOP) {
        walk.count(Counter.NOP);
        i++;
        continue;
      }
      if (end - i < 2) {
        return walk.end(Stop.TRUNCATED);
      }
      int size = buf[i + 1] & 0xff;
      if (size < 2) {
        return walk.end(Stop.BAD_LENGTH);
      }
      if (size > end - i) {
        return walk.end(Stop.TRUNCATED);
      }
      walk.option(new TcpOption(kind, i, size));
      if (kind == TcpOption.MPTCP) {
        walk.mptcp(parseMptcp(buf, i, size, walk));
      } else {
        walk.count(Counter.OTHER_KIND);
      }
      i += size;
    }
    return walk.end(Stop.EXHAUSTED);
  }

  /** The first MP_CAPABLE, if any. */
  public Optional<MpCapable> mpCapable() {
    return first(MpCapable.class);
  }

  /** The first MP_JOIN, if any. */
  public Optional<MpJoin> mpJoin() {
    return first(MpJoin.class);
  }

  private <T extends MptcpOption> Optional<T> first(Class<T> type) {
    return mptcp.stream().filter(type::isInstance).map(type::cast).findFirst();
  }

  /** One kind-30 option at {@code b[i]}, {@code size} bytes that fit: decoded, or null. */
  private static MptcpOption parseMptcp(byte[] b, int i, int size, Walk walk) {
    walk.count(Counter.MPTCP);
    if (size < 3) {
      walk.count(Counter.MPTCP_TOO_SHORT);
      return null;
    }
    int subtype = (b[i + 2] & 0xff) >> 4;
    switch (subtype) {
      case MptcpOption.SUBTYPE_MP_CAPABLE:
        return parseMpCapable(b, i, size, walk);
      case MptcpOption.SUBTYPE_MP_JOIN:
        return parseMpJoin(b, i, size, walk);
      default:
        walk.count(
            subtype <= 0x8 || subtype == 0xf
                ? Counter.OTHER_SUBTYPE
                : Counter.UNKNOWN_MPTCP_SUBTYPE);
        return null;
    }
  }

  /**
   * MP_CAPABLE: byte 2 subtype and version, byte 3 flags, then by length the sender's key (from
   * 12), the receiver's key (from 20), the data-level length (from 22), the checksum (24).
   */
  private static MpCapable parseMpCapable(byte[] b, int i, int size, Walk walk) {
    int version = b[i + 2] & 0x0f;
    boolean fits =
        version == 0
            ? size == 12 || size == 20
            : size == 4 || size == 12 || size == 20 || size == 22 || size == 24;
    if (!fits) {
      walk.count(Counter.MP_CAPABLE_BAD_LENGTH);
      return null;
    }
    walk.count(Counter.MP_CAPABLE);
    return new MpCapable(
        version,
        b[i + 3] & 0xff,
        size >= 12 ? u64(b, i + 4) : null,
        size >= 20 ? u64(b, i + 12) : null,
        size >= 22 ? (Integer) u16(b, i + 20) : null,
        size);
  }

  /**
   * MP_JOIN: SYN (12) flags, address id, receiver's token, nonce; SYN/ACK (16) flags, address id,
   * truncated HMAC, nonce; ACK (24) two reserved bytes, then the HMAC.
   */
  private static MpJoin parseMpJoin(byte[] b, int i, int size, Walk walk) {
    if (size != 12 && size != 16 && size != 24) {
      walk.count(Counter.MP_JOIN_BAD_LENGTH);
      return null;
    }
    walk.count(Counter.MP_JOIN);
    boolean backup = (b[i + 2] & 0x01) != 0;
    int addressId = b[i + 3] & 0xff;
    return switch (size) {
      case 12 ->
          new MpJoin(Stage.SYN, backup, addressId, s32(b, i + 4), s32(b, i + 8), null, null, 12);
      case 16 ->
          new MpJoin(
              Stage.SYNACK, backup, addressId, null, s32(b, i + 12), u64(b, i + 4), null, 16);
      default ->
          new MpJoin(
              Stage.ACK, false, null, null, null, null, Arrays.copyOfRange(b, i + 4, i + 24), 24);
    };
  }

  private static int u16(byte[] b, int i) {
    return ((b[i] & 0xff) << 8) | (b[i + 1] & 0xff);
  }

  private static int s32(byte[] b, int i) {
    return (u16(b, i) << 16) | u16(b, i + 2);
  }

  private static long u64(byte[] b, int i) {
    return ((long) s32(b, i) << 32) | (s32(b, i + 4) & 0xffffffffL);
  }

  /** What one walk collected; lists are allocated only when something is found. */
  private static final class Walk {
    private final ParseStats stats;
    private List<TcpOption> options = List.of();
    private List<MptcpOption> mptcp = List.of();

    Walk(ParseStats stats) {
      this.stats = stats;
    }

    void count(Counter counter) {
      if (stats != null) {
        stats.increment(counter);
      }
    }

    void option(TcpOption option) {
      if (options.isEmpty()) {
        options = new ArrayList<>(4);
      }
      options.add(option);
    }

    void mptcp(MptcpOption option) {
      if (option == null) {
        return;
      }
      if (mptcp.isEmpty()) {
        mptcp = new ArrayList<>(1);
      }
      mptcp.add(option);
    }

    TcpOptions end(Stop stop) {
      count(Counter.LISTS);
      count(
          switch (stop) {
            case END_OF_LIST -> Counter.END_OF_LIST;
            case EXHAUSTED -> Counter.EXHAUSTED;
            case BAD_LENGTH -> Counter.BAD_LENGTH;
            case TRUNCATED -> Counter.TRUNCATED;
          });
      return new TcpOptions(
          options.isEmpty() ? options : List.copyOf(options),
          mptcp.isEmpty() ? mptcp : List.copyOf(mptcp),
          stop);
    }
  }
}

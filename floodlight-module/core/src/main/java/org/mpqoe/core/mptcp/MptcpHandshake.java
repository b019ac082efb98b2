package org.mpqoe.core.mptcp;

import java.util.HexFormat;
import java.util.List;
import org.mpqoe.core.mptcp.MptcpOption.MpCapable;
import org.mpqoe.core.mptcp.MptcpOption.MpJoin;
import org.mpqoe.core.mptcp.ParseStats.Counter;
import org.mpqoe.core.packet.Tcp;

/**
 * Which MPTCP handshake step a TCP segment is, from its SYN and ACK flags and its first MP_CAPABLE
 * or MP_JOIN option. "Client" is the host that sent the SYN, "server" the one that answered.
 *
 * <table>
 *   <caption>Steps</caption>
 *   <tr><th>flags</th><th>MP_CAPABLE</th><th>MP_JOIN</th></tr>
 *   <tr><td>SYN</td><td>v1: 4, v0: 12 (client's key)</td><td>12</td></tr>
 *   <tr><td>SYN+ACK</td><td>12 (server's key)</td><td>16</td></tr>
 *   <tr><td>ACK</td><td>20, v1 also 22/24 (both keys)</td><td>24</td></tr>
 * </table>
 *
 * <p>Segments with a handshake option and other flags (or a length that does not fit the flags) are
 * {@link None} with {@link Reason#FLAGS_MISMATCH}. In v1 the client repeats MP_CAPABLE (22 or 24)
 * on its first data segment: that is a {@link CapableAck} as well.
 */
public sealed interface MptcpHandshake {

  /** The step, for switches and logs. */
  enum Step {
    CAPABLE_SYN,
    CAPABLE_SYNACK,
    CAPABLE_ACK,
    JOIN_SYN,
    JOIN_SYNACK,
    JOIN_ACK,
    NONE
  }

  /** Why a segment is not a handshake step. */
  enum Reason {
    /** No decodable MP_CAPABLE or MP_JOIN. */
    NO_HANDSHAKE_OPTION,
    /** One is there, but the SYN/ACK flags do not go with it. */
    FLAGS_MISMATCH
  }

  Step step();

  /** The client's SYN offering MPTCP; v0 SYNs carry the client's key, v1 SYNs none. */
  record CapableSyn(int version, int flags, Long clientKey) implements MptcpHandshake {
    @Override
    public Step step() {
      return Step.CAPABLE_SYN;
    }
  }

  /** The server's SYN/ACK accepting MPTCP, with its key. */
  record CapableSynAck(int version, int flags, long serverKey) implements MptcpHandshake {
    @Override
    public Step step() {
      return Step.CAPABLE_SYNACK;
    }
  }

  /** The client's third ACK (or v1 first data segment) echoing both keys. */
  record CapableAck(int version, int flags, long clientKey, long serverKey, Integer dataLevelLength)
      implements MptcpHandshake {
    @Override
    public Step step() {
      return Step.CAPABLE_ACK;
    }
  }

  /** A new subflow's SYN: the token names the connection at the server (the SYN's receiver). */
  record JoinSyn(int token, int addressId, int nonce, boolean backup) implements MptcpHandshake {
    @Override
    public Step step() {
      return Step.JOIN_SYN;
    }

    @Override
    public String toString() {
      return "JoinSyn[token="
          + Tokens.hex(token)
          + ", addressId="
          + addressId
          + ", nonce="
          + nonce
          + ", backup="
          + backup
          + "]";
    }
  }

  /** The server's SYN/ACK of a new subflow. */
  record JoinSynAck(int addressId, long truncatedHmac, int nonce, boolean backup)
      implements MptcpHandshake {
    @Override
    public Step step() {
      return Step.JOIN_SYNACK;
    }
  }

  /** The client's third ACK of a new subflow, with its 160-bit HMAC. */
  record JoinAck(byte[] hmac) implements MptcpHandshake {
    @Override
    public Step step() {
      return Step.JOIN_ACK;
    }

    @Override
    public String toString() {
      return "JoinAck[hmac=" + HexFormat.of().formatHex(hmac) + "]";
    }
  }

  /** Not a handshake step. */
  record None(Reason reason) implements MptcpHandshake {
    @Override
    public Step step() {
      return Step.NONE;
    }
  }

  /** Classifies a parsed TCP header. */
  static MptcpHandshake classify(Tcp tcp, ParseStats stats) {
    return tcp == null
        ? new None(Reason.NO_HANDSHAKE_OPTION)
        : classify(tcp.flags(), tcp.options(), stats);
  }

  /** Classifies raw TCP flags (byte 13) and option bytes, without counting. */
  static MptcpHandshake classify(int tcpFlags, byte[] options) {
    return classify(tcpFlags, options, null);
  }

  /** Classifies raw TCP flags (byte 13) and option bytes; counts into stats unless null. */
  static MptcpHandshake classify(int tcpFlags, byte[] options, ParseStats stats) {
    List<MptcpOption> found = TcpOptions.parse(options, stats).mptcp();
    if (found.isEmpty()) {
      return new None(Reason.NO_HANDSHAKE_OPTION);
    }
    MptcpOption first = found.get(0);
    MptcpHandshake step =
        first instanceof MpCapable c ? capable(tcpFlags, c) : join(tcpFlags, (MpJoin) first);
    if (step != null) {
      return step;
    }
    if (stats != null) {
      stats.increment(Counter.HANDSHAKE_FLAGS_MISMATCH);
    }
    return new None(Reason.FLAGS_MISMATCH);
  }

  private static MptcpHandshake capable(int tcpFlags, MpCapable c) {
    boolean v0 = c.version() == 0;
    return switch (tcpFlags & (Tcp.SYN | Tcp.ACK)) {
      case Tcp.SYN ->
          c.length() == (v0 ? 12 : 4)
              ? new CapableSyn(c.version(), c.flags(), c.senderKey())
              : null;
      case Tcp.SYN | Tcp.ACK ->
          c.length() == 12 ? new CapableSynAck(c.version(), c.flags(), c.senderKey()) : null;
      case Tcp.ACK ->
          c.length() >= 20
              ? new CapableAck(
                  c.version(), c.flags(), c.senderKey(), c.receiverKey(), c.dataLevelLength())
              : null;
      default -> null;
    };
  }

  private static MptcpHandshake join(int tcpFlags, MpJoin j) {
    return switch (tcpFlags & (Tcp.SYN | Tcp.ACK)) {
      case Tcp.SYN ->
          j.stage() == MpJoin.Stage.SYN
              ? new JoinSyn(j.receiverToken(), j.addressId(), j.nonce(), j.backup())
              : null;
      case Tcp.SYN | Tcp.ACK ->
          j.stage() == MpJoin.Stage.SYNACK
              ? new JoinSynAck(j.addressId(), j.truncatedHmac(), j.nonce(), j.backup())
              : null;
      case Tcp.ACK -> j.stage() == MpJoin.Stage.ACK ? new JoinAck(j.hmac()) : null;
      default -> null;
    };
  }
}

package org.mpqoe.core.mptcp;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters of what {@link TcpOptions#parse} and {@link MptcpHandshake#classify} met. Thread-safe:
 * one instance can serve every packet-in thread.
 *
 * <p>They add up: {@code LISTS = END_OF_LIST + EXHAUSTED + BAD_LENGTH + TRUNCATED} (each walk ends
 * one way) and {@code MPTCP = MP_CAPABLE + MP_JOIN + OTHER_SUBTYPE + UNKNOWN_MPTCP_SUBTYPE +
 * MPTCP_TOO_SHORT + MP_CAPABLE_BAD_LENGTH + MP_JOIN_BAD_LENGTH} (each kind-30 option is one of
 * these).
 */
public final class ParseStats {

  /** One counter. */
  public enum Counter {
    /** Option lists walked. */
    LISTS,
    /** Walks stopped by kind 0 (end of option list). */
    END_OF_LIST,
    /** Walks that used up the bytes with every option well-formed. */
    EXHAUSTED,
    /** Walks stopped by a length byte below 2 (cannot go on: the next option is unknown). */
    BAD_LENGTH,
    /** Walks stopped by a missing length byte or an option running past the end. */
    TRUNCATED,
    /** NOP bytes (kind 1). */
    NOP,
    /** Well-formed options of kinds other than 0, 1 and 30 (MSS, SACK, timestamps, ...). */
    OTHER_KIND,
    /** Well-formed (fitting) kind-30 options, whatever their content. */
    MPTCP,
    /** MP_CAPABLE options decoded. */
    MP_CAPABLE,
    /** MP_JOIN options decoded. */
    MP_JOIN,
    /** Known subtypes this parser leaves alone: DSS, ADD_ADDR, ..., MP_TCPRST, MP_EXPERIMENTAL. */
    OTHER_SUBTYPE,
    /** Subtypes 0x9-0xe, unassigned in RFC 8684. */
    UNKNOWN_MPTCP_SUBTYPE,
    /** Kind 30 with length 2: no room for the subtype. */
    MPTCP_TOO_SHORT,
    /** MP_CAPABLE whose length is not one of its version's. */
    MP_CAPABLE_BAD_LENGTH,
    /** MP_JOIN whose length is not 12, 16 or 24. */
    MP_JOIN_BAD_LENGTH,
    /** Handshake options on a segment with the wrong SYN/ACK flags for them. */
    HANDSHAKE_FLAGS_MISMATCH
  }

  private static final Counter[] COUNTERS = Counter.values();
  private final AtomicLongArray counts = new AtomicLongArray(COUNTERS.length);

  public long get(Counter counter) {
    return counts.get(counter.ordinal());
  }

  /** Everything that was wrong with the bytes (not counting flag mismatches). */
  public long malformed() {
    return get(Counter.BAD_LENGTH)
        + get(Counter.TRUNCATED)
        + get(Counter.MPTCP_TOO_SHORT)
        + get(Counter.MP_CAPABLE_BAD_LENGTH)
        + get(Counter.MP_JOIN_BAD_LENGTH);
  }

  /** A copy of every counter, in declaration order. */
  public Map<Counter, Long> snapshot() {
    Map<Counter, Long> copy = new EnumMap<>(Counter.class);
    for (Counter c : COUNTERS) {
      copy.put(c, get(c));
    }
    return copy;
  }

  void increment(Counter counter) {
    counts.incrementAndGet(counter.ordinal());
  }

  @Override
  public String toString() {
    return "ParseStats" + snapshot();
  }
}

package org.mpqoe.core.mptcp;

import java.util.HexFormat;

/**
 * The MPTCP options (TCP option kind 30) this parser decodes: MP_CAPABLE and MP_JOIN. Other
 * subtypes are counted in {@link ParseStats} and dropped. Layouts: RFC 8684 section 3.1 and 3.2
 * (version 1), RFC 6824 section 3.1 and 3.2 (version 0).
 */
public sealed interface MptcpOption {
  int SUBTYPE_MP_CAPABLE = 0;
  int SUBTYPE_MP_JOIN = 1;

  /** The option's length byte. */
  int length();

  /**
   * MP_CAPABLE. Which handshake step it belongs to depends on the TCP flags as well (see {@link
   * MptcpHandshake}); the keys depend on the length:
   *
   * <ul>
   *   <li>v1: 4 (SYN, no key), 12 (SYN/ACK, sender's key), 20 (ACK, sender's and receiver's key),
   *       22 (ACK with data: + data-level length), 24 (+ checksum)
   *   <li>v0: 12 (SYN or SYN/ACK, sender's key), 20 (ACK, both keys)
   * </ul>
   *
   * @param version low nibble of byte 2 (0 or 1; higher versions are read with v1's layout)
   * @param flags byte 3: A (checksum), B (extensibility), C (no join to address id 0), H (HMAC)
   * @param senderKey the key of the host sending the option, or null
   * @param receiverKey the key of the host receiving it (third ACK only), or null
   * @param dataLevelLength length of the data carried (v1, 22 and 24 only), or null
   * @param length 4, 12, 20, 22 or 24
   */
  record MpCapable(
      int version, int flags, Long senderKey, Long receiverKey, Integer dataLevelLength, int length)
      implements MptcpOption {
    public static final int FLAG_CHECKSUM = 0x80;
    public static final int FLAG_EXTENSIBILITY = 0x40;
    public static final int FLAG_NO_JOIN_ID0 = 0x20;
    public static final int FLAG_HMAC = 0x01;

    public boolean checksumRequired() {
      return (flags & FLAG_CHECKSUM) != 0;
    }
  }

  /**
   * MP_JOIN, whose length tells the step: 12 in the SYN, 16 in the SYN/ACK, 24 in the third ACK.
   *
   * @param stage SYN, SYNACK or ACK, from the length
   * @param backup the B flag (false in the ACK, which has none)
   * @param addressId the sender's address id (null in the ACK)
   * @param receiverToken SYN only: the token of the host receiving the SYN
   * @param nonce SYN and SYN/ACK: the sender's random number
   * @param truncatedHmac SYN/ACK only: leftmost 64 bits of the sender's HMAC
   * @param hmac ACK only: the sender's 160-bit HMAC (this record's own copy)
   * @param length 12, 16 or 24
   */
  record MpJoin(
      Stage stage,
      boolean backup,
      Integer addressId,
      Integer receiverToken,
      Integer nonce,
      Long truncatedHmac,
      byte[] hmac,
      int length)
      implements MptcpOption {

    /** The MP_JOIN form, told by its length. */
    public enum Stage {
      SYN,
      SYNACK,
      ACK
    }

    @Override
    public String toString() {
      return "MpJoin["
          + stage
          + " backup="
          + backup
          + " addressId="
          + addressId
          + " token="
          + (receiverToken == null ? null : Tokens.hex(receiverToken))
          + " nonce="
          + nonce
          + " truncatedHmac="
          + truncatedHmac
          + " hmac="
          + (hmac == null ? null : HexFormat.of().formatHex(hmac))
          + "]";
    }
  }
}

package org.mpqoe.core.mptcp;

/**
 * A well-formed TCP option other than NOP and end-of-list, located in the buffer it was parsed
 * from.
 *
 * @param kind option kind (2 to 255)
 * @param offset index of its kind byte in that buffer
 * @param length its length byte (2 or more), kind and length bytes included
 */
public record TcpOption(int kind, int offset, int length) {
  public static final int END = 0;
  public static final int NOP = 1;
  public static final int MPTCP = 30;
}

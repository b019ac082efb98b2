package org.mpqoe.core.topology;

/**
 * An undirected switch-to-switch link with its nominal properties from the descriptor.
 *
 * @param index position in {@link Topology#links()}; link state arrays are indexed by it
 * @param a one end
 * @param portA port number of this link on {@code a}
 * @param b the other end
 * @param portB port number of this link on {@code b}
 * @param capacityMbps nominal capacity in Mbit/s
 * @param delayMs nominal one-way delay in ms
 * @param lossPct nominal loss in percent
 */
public record Link(
    int index,
    SwitchNode a,
    int portA,
    SwitchNode b,
    int portB,
    double capacityMbps,
    double delayMs,
    double lossPct) {

  /** The end of this link that is not {@code from}. */
  public SwitchNode other(SwitchNode from) {
    if (from.index() == a.index()) {
      return b;
    }
    if (from.index() == b.index()) {
      return a;
    }
    throw new IllegalArgumentException(from + " is not an end of link " + this);
  }

  /** The port of this link on switch {@code at}. */
  public int portAt(SwitchNode at) {
    if (at.index() == a.index()) {
      return portA;
    }
    if (at.index() == b.index()) {
      return portB;
    }
    throw new IllegalArgumentException(at + " is not an end of link " + this);
  }

  @Override
  public String toString() {
    return a.name() + "-" + b.name();
  }
}

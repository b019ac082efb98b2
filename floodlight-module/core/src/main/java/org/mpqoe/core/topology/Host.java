package org.mpqoe.core.topology;

import java.util.List;

/**
 * A server or an MPTCP client with one or more interfaces. The number of a client's interfaces is
 * the N of the GA paper (eq. 5): the most subflows, hence paths, it can use.
 */
public record Host(String name, Role role, List<HostInterface> interfaces) {

  /** What a host is for. */
  public enum Role {
    SERVER,
    CLIENT
  }

  public Host {
    interfaces = List.copyOf(interfaces);
    if (interfaces.isEmpty()) {
      throw new IllegalArgumentException("host " + name + " has no interface");
    }
  }

  /** The switch that sees this host's first SYN: the attachment of its first interface. */
  public SwitchNode firstHop() {
    return interfaces.get(0).attachment();
  }

  /** The switch index each interface is attached at, in interface order. */
  public int[] attachmentIndices() {
    return interfaces.stream().mapToInt(f -> f.attachment().index()).toArray();
  }
}

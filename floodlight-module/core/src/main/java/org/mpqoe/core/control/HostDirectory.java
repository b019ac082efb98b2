package org.mpqoe.core.control;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.mpqoe.core.packet.Addresses;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.Topology;

/** Which host interface owns an IPv4 address, from the topology's hosts. */
public final class HostDirectory {
  /** An interface of a host; {@code index} is its position, 0 = the first interface. */
  public record Attachment(Host host, int index, HostInterface iface) {}

  private final Map<Integer, Attachment> byIp = new HashMap<>();

  public HostDirectory(Topology topology) {
    for (Host h : topology.hosts()) {
      for (int i = 0; i < h.interfaces().size(); i++) {
        HostInterface f = h.interfaces().get(i);
        byIp.put(Addresses.parseIpv4(f.ip()), new Attachment(h, i, f));
      }
    }
  }

  public Optional<Attachment> byIp(int ip) {
    return Optional.ofNullable(byIp.get(ip));
  }

  public java.util.Collection<Attachment> all() {
    return byIp.values();
  }
}

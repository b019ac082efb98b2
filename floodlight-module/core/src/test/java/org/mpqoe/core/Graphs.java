package org.mpqoe.core;

import java.util.ArrayList;
import java.util.List;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;

/** Small hand-built topologies for tests, written as {@code "a-b cap delay"} link strings. */
public final class Graphs {
  private Graphs() {}

  /**
   * A topology whose switches are named by the links, e.g. {@code of("a-b 10 5", "b-c 10 7")}: link
   * a-b of 10 Mbit/s and 5 ms, b-c of 10 Mbit/s and 7 ms. A server sits on the last switch named
   * and has three interfaces.
   */
  public static Topology of(String... links) {
    List<String> switches = new ArrayList<>();
    StringBuilder linkJson = new StringBuilder();
    for (String l : links) {
      String[] f = l.trim().split("\\s+");
      String[] ends = f[0].split("-");
      for (String e : ends) {
        if (!switches.contains(e)) {
          switches.add(e);
        }
      }
      if (linkJson.length() > 0) {
        linkJson.append(',');
      }
      linkJson.append(
          String.format(
              "{\"a\":\"%s\",\"b\":\"%s\",\"capacityMbps\":%s,\"delayMs\":%s}",
              ends[0], ends[1], f[1], f[2]));
    }
    StringBuilder sw = new StringBuilder();
    for (String s : switches) {
      if (sw.length() > 0) {
        sw.append(',');
      }
      sw.append("{\"name\":\"").append(s).append("\"}");
    }
    String server = switches.get(switches.size() - 1);
    String json =
        "{\"schema\":1,\"name\":\"test\",\"description\":\"test graph\",\"switches\":["
            + sw
            + "],\"links\":["
            + linkJson
            + "],\"hosts\":[{\"name\":\"server\",\"role\":\"server\",\"interfaces\":["
            + "{\"ip\":\"10.0.1.1\",\"mac\":\"02:00:00:00:01:01\",\"switch\":\""
            + server
            + "\"}]}]}";
    return TopologyLoader.parse(json, "test");
  }
}

package org.mpqoe.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.mpqoe.core.control.Cookies;
import org.mpqoe.core.topology.Host;
import org.mpqoe.core.topology.HostInterface;
import org.mpqoe.core.topology.Link;
import org.mpqoe.core.topology.SwitchNode;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mpqoe contract}: what the Python side must agree with, as the Java code computes it, in
 * one JSON document: the rule cookie layout ({@link Cookies}: field positions found by encoding,
 * sample cookies with their decoding) and, per descriptor, the DPIDs and OpenFlow port numbers
 * {@link TopologyLoader} assigns. The Python tests (mininet-scripts/tests/test_contract.py) compare
 * their own decoder and port plan against it. Hidden from the help: a test fixture.
 */
@Command(
    name = "contract",
    hidden = true,
    description = "Cookie layout and descriptor port plans as JSON (fixture of the Python tests).")
final class ContractCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "NAME|FILE",
      arity = "0..*",
      description = "Descriptors to include (default: every embedded one).")
  List<String> topologies = new ArrayList<>();

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Override
  public Integer call() throws JsonProcessingException {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("cookies", cookies());
    List<Object> plans = new ArrayList<>();
    for (String t : topologies.isEmpty() ? TopologyLoader.embeddedNames() : topologies) {
      plans.add(plan(t, TopologyLoader.load(t)));
    }
    doc.put("topologies", plans);
    spec.commandLine().getOut().println(MAPPER.writeValueAsString(doc));
    spec.commandLine().getOut().flush();
    return 0;
  }

  static Map<String, Object> cookies() {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("app", Cookies.APP);
    c.put("appMask", Cookies.APP_MASK);
    c.put("connectionMask", Cookies.CONNECTION_MASK);
    Map<String, Integer> kinds = new LinkedHashMap<>();
    kinds.put("SUBFLOW", Cookies.SUBFLOW);
    kinds.put("LABEL", Cookies.LABEL);
    kinds.put("DELIVERY", Cookies.DELIVERY);
    kinds.put("TABLE_MISS", Cookies.TABLE_MISS);
    kinds.put("PLAIN", Cookies.PLAIN);
    c.put("kinds", kinds);
    // Each field's bits: a cookie with that field all ones, less the cookie with all fields 0.
    long zero = Cookies.of(0, 0, 0, 0);
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("kind", field(Cookies.of(-1, 0, 0, 0) ^ zero));
    fields.put("connection", field(Cookies.of(0, -1, 0, 0) ^ zero));
    fields.put("generation", field(Cookies.of(0, 0, -1, 0) ^ zero));
    fields.put("subflow", field(Cookies.of(0, 0, 0, -1) ^ zero));
    c.put("fields", fields);
    List<Object> samples = new ArrayList<>();
    int[][] values = {
      {Cookies.SUBFLOW, 1, 0, 1},
      {Cookies.SUBFLOW, 0xABCDEF, 7, 3},
      {Cookies.LABEL, 42, 255, 255},
      {Cookies.DELIVERY, 0, 0, 0},
      {Cookies.TABLE_MISS, 0, 0, 0},
      {Cookies.PLAIN, 0xFFFFFF, 1, 2},
    };
    for (int[] v : values) {
      long cookie = Cookies.of(v[0], v[1], v[2], v[3]);
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("cookie", cookie);
      s.put("ours", Cookies.isOurs(cookie));
      s.put("kind", Cookies.kind(cookie));
      s.put("connection", Cookies.connection(cookie));
      s.put("generation", Cookies.generation(cookie));
      s.put("subflow", Cookies.subflow(cookie));
      samples.add(s);
    }
    c.put("samples", samples);
    return c;
  }

  private static Map<String, Object> field(long mask) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("shift", Long.numberOfTrailingZeros(mask));
    f.put("bits", Long.bitCount(mask));
    return f;
  }

  static Map<String, Object> plan(String ref, Topology t) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("ref", ref);
    p.put("name", t.name());
    List<Object> switches = new ArrayList<>();
    for (SwitchNode s : t.switches()) {
      switches.add(Map.of("name", s.name(), "dpid", s.dpid()));
    }
    p.put("switches", switches);
    List<Object> links = new ArrayList<>();
    for (Link l : t.links()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("index", l.index());
      m.put("a", l.a().name());
      m.put("portA", l.portA());
      m.put("b", l.b().name());
      m.put("portB", l.portB());
      links.add(m);
    }
    p.put("links", links);
    List<Object> hosts = new ArrayList<>();
    for (Host h : t.hosts()) {
      List<Object> ifaces = new ArrayList<>();
      for (HostInterface f : h.interfaces()) {
        ifaces.add(Map.of("ip", f.ip(), "switch", f.attachment().name(), "port", f.port()));
      }
      hosts.add(Map.of("name", h.name(), "interfaces", ifaces));
    }
    p.put("hosts", hosts);
    return p;
  }
}

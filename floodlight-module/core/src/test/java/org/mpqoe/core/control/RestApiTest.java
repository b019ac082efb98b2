package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mpqoe.core.select.SelectionConfig;

class RestApiTest {
  private final MptcpControlPlane cp =
      new MptcpControlPlane(MptcpRouterTest.TOPO, ControlConfig.defaults());

  @Test
  void aValidPutChangesTheAlgorithmAndThresholds() {
    RestApi.Response r =
        cp.rest().handle("PUT", "/mpqoe/config", "{\"algorithm\":\"fd-bw\",\"thrDelayMs\":120}");
    assertEquals(200, r.status(), r.json());
    assertEquals("fd-bw", cp.router().config().algorithm());
    assertEquals(120.0, cp.router().config().selection().thrDelayMs());
    assertEquals(
        SelectionConfig.DEFAULTS.alpha(),
        cp.router().config().selection().alpha(),
        "untouched fields stay");
  }

  @Test
  void aValidPutChangesQomrasParameters() {
    RestApi.Response r =
        cp.rest()
            .handle(
                "PUT",
                "/mpqoe/config",
                "{\"algorithm\":\"qomra\",\"qomraK\":4,\"qomraIntervalS\":2.5,"
                    + "\"qomraResolution\":\"720p\",\"qomraCongestionWeight\":3}");
    assertEquals(200, r.status(), r.json());
    var q = cp.router().config().qomra();
    assertEquals("qomra", cp.router().config().algorithm());
    assertEquals(4, q.k());
    assertEquals(2.5, q.intervalS());
    assertEquals(org.mpqoe.core.select.Resolution.P720, q.resolution());
    assertEquals(3.0, q.congestionWeight());
    assertEquals(1.0, q.delayWeight(), "untouched weights stay");
    assertTrue(r.json().contains("\"qomraRequiredMbps\":2.5"), r.json());
    assertEquals(405, cp.rest().handle("PUT", "/mpqoe/qomra", "{}").status());
    String books = cp.rest().handle("GET", "/mpqoe/qomra", null).json();
    assertTrue(books.contains("\"active\":true") && books.contains("\"store\":[]"), books);
  }

  @Test
  void resourcesAndMethods() {
    assertEquals(404, cp.rest().handle("GET", "/mpqoe/nothing", null).status());
    assertEquals(405, cp.rest().handle("DELETE", "/mpqoe/config", null).status());
    assertEquals(405, cp.rest().handle("POST", "/mpqoe/topology", "{}").status());
    assertEquals("[]", cp.rest().handle("GET", "/mpqoe/connections", null).json());
    cp.router().handle(MptcpRouterTest.syn(MptcpRouterTest.CL1, 5000));
    String conns = cp.rest().handle("GET", "/mpqoe/connections/", null).json();
    assertTrue(conns.contains("\"client\":\"10.0.1.11:5000\""), conns);
    assertTrue(conns.contains("\"path\":[\"a\",\"b\",\"d\"]"), conns);
    String clients = cp.rest().handle("GET", "/mpqoe/clients", null).json();
    assertTrue(clients.contains("\"client\":\"cl\""), clients);
  }

  @Test
  void theTopologySaysWhichLinksDelaysLldpHasMeasured() throws Exception {
    var json = new com.fasterxml.jackson.databind.ObjectMapper();
    var links = json.readTree(cp.rest().handle("GET", "/mpqoe/topology", null).json()).get("links");
    assertTrue(links.size() > 1);
    links.forEach(l -> assertEquals(false, l.get("delayKnown").asBoolean(true), l.toString()));
    org.mpqoe.core.topology.Link first = MptcpRouterTest.TOPO.links().get(0);
    long a = first.a().dpid();
    long b = first.b().dpid();
    cp.links().controlRtt(a, 1);
    cp.links().controlRtt(b, 1);
    for (int i = 0; i < LinkDelayEstimator.WINDOW; i++) {
      cp.links().lldpSample(a, first.portA(), b, first.portB(), 6);
    }
    links = json.readTree(cp.rest().handle("GET", "/mpqoe/topology", null).json()).get("links");
    for (var l : links) {
      assertEquals(
          l.get("index").asInt() == first.index(), l.get("delayKnown").asBoolean(), l.toString());
    }
  }
}

package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RestApiTest {
  private final MptcpControlPlane cp =
      new MptcpControlPlane(MptcpRouterTest.TOPO, ControlConfig.defaults());

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not json|{alpha|body is not JSON",
        "empty body||body must be a non-empty JSON object",
        "array|[1]|body must be a non-empty JSON object",
        "unknown field|{\"gamma\":1}|unknown field 'gamma'",
        "wrong type|{\"alpha\":\"high\"}|'alpha' must be a number",
        "out of range|{\"thrCong\":-1}|thr_cong must be >= 0",
        "both weights zero|{\"alpha\":0,\"beta\":0}|alpha and beta must be >= 0 and not both 0",
        "unknown algorithm|{\"algorithm\":\"magic\"}|unknown algorithm 'magic'",
        "qomra k zero|{\"qomraK\":0}|QoMRA k must be 1..64, got 0",
        "qomra k fraction|{\"qomraK\":2.5}|'qomraK' must be an integer",
        "qomra k text|{\"qomraK\":\"3\"}|'qomraK' must be an integer",
        "qomra interval|{\"qomraIntervalS\":0}|QoMRA interval t must be a positive number",
        "resolution|{\"qomraResolution\":\"4k\"}|unknown resolution '4k' (known: 1080p, 720p",
        "resolution type|{\"qomraResolution\":480}|'qomraResolution' must be a string",
        "negative weight|{\"qomraLossWeight\":-1}|QoMRA weights must be finite and >= 0",
        "zero weights|{\"qomraDelayWeight\":0,\"qomraLossWeight\":0,\"qomraCriticalityWeight\":0,\"qomraCongestionWeight\":0}|QoMRA weights must not all be 0",
        "good qomra, bad alpha|{\"qomraK\":5,\"alpha\":-1}|alpha and beta must be >= 0",
      })
  void badBodiesAreRefusedAndChangeNothing(String why, String body, String message) {
    String before = cp.rest().handle("GET", "/mpqoe/config", null).json();
    RestApi.Response r = cp.rest().handle("PUT", "/mpqoe/config", body);
    assertEquals(400, r.status(), why);
    assertTrue(r.json().contains(message), why + ": " + r.json());
    assertEquals(before, cp.rest().handle("GET", "/mpqoe/config", null).json(), why);
  }

  @Test
  void aValidPutChangesTheAlgorithmAndThresholds() {
    RestApi.Response r =
        cp.rest().handle("PUT", "/mpqoe/config", "{\"algorithm\":\"fd-bw\",\"thrDelayMs\":120}");
    assertEquals(200, r.status(), r.json());
    assertEquals("fd-bw", cp.router().config().algorithm());
    assertEquals(120.0, cp.router().config().selection().thrDelayMs());
    assertEquals(0.5, cp.router().config().selection().alpha(), "untouched fields stay");
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
}

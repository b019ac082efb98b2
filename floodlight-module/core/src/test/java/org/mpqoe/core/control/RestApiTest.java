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

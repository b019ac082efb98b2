package org.mpqoe.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpqoe.core.select.SelectionConfig;

/** REST config writes: what is refused, with which status, and that a refusal changes nothing. */
class RestApiConfigTest {
  private static final String JSON = "application/json";
  private final MptcpControlPlane cp =
      new MptcpControlPlane(MptcpRouterTest.TOPO, ControlConfig.defaults());

  private String config() {
    return cp.rest().handle("GET", "/mpqoe/config", null).json();
  }

  private RestApi.Response put(String contentType, String body) {
    return request("PUT", contentType, null, body, RestAccess.LOOPBACK);
  }

  private RestApi.Response request(
      String method, String contentType, String auth, String body, RestAccess access) {
    return cp.rest()
        .handle(new RestApi.Request(method, "/mpqoe/config", contentType, auth, body), access);
  }

  /** Asserts the status, the message, and that the configuration did not change. */
  private void refused(int status, String message, RestApi.Response r, String before) {
    assertEquals(status, r.status(), r.json());
    assertTrue(r.json().contains(message), r.json());
    assertEquals(before, config(), "a refusal changes nothing");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not json|{alpha|body is not one JSON object",
        "empty body||body must be a non-empty JSON object",
        "array|[1]|body must be a non-empty JSON object",
        "trailing garbage|{\"alpha\":0.3} x|body is not one JSON object",
        "two objects|{\"alpha\":0.3}{\"beta\":0.2}|body is not one JSON object",
        "duplicate key|{\"alpha\":0.3,\"alpha\":0.4}|Duplicate field 'alpha'",
        "unknown field|{\"gamma\":1}|unknown field 'gamma'",
        "fixed at start|{\"maxHops\":3}|'maxHops' is set at start only",
        "wrong type|{\"alpha\":\"high\"}|'alpha' must be a finite number, 0 to 1",
        "alpha huge|{\"alpha\":1e400}|'alpha' must be a finite number, 0 to 1, got 'Infinity'",
        "thrCong huge|{\"thrCong\":1e309}|'thrCong' must be a finite number, 0 to 10",
        "thrDelay zero|{\"thrDelayMs\":0}|'thrDelayMs' must be a finite number, above 0",
        "out of range|{\"thrCong\":-1}|'thrCong' must be a finite number, 0 to 10, got '-1'",
        "both weights zero|{\"alpha\":0,\"beta\":0}|alpha and beta must be >= 0 and not both 0",
        "unknown algorithm|{\"algorithm\":\"magic\"}|'algorithm' must be one of ga, ga-tuned, exact",
        "qomra k zero|{\"qomraK\":0}|'qomraK' must be an integer, 1 to 64, got '0'",
        "qomra k fraction|{\"qomraK\":2.5}|'qomraK' must be an integer",
        "qomra k text|{\"qomraK\":\"3\"}|'qomraK' must be an integer",
        "qomra interval|{\"qomraIntervalS\":0}|'qomraIntervalS' must be a finite number, above 0",
        "resolution|{\"qomraResolution\":\"4k\"}|'qomraResolution' must be one of 1080p, 720p",
        "resolution type|{\"qomraResolution\":480}|'qomraResolution' must be one of",
        "negative weight|{\"qomraLossWeight\":-1}|'qomraLossWeight' must be a finite number",
        "zero weights|{\"qomraDelayWeight\":0,\"qomraLossWeight\":0,\"qomraCriticalityWeight\":0,\"qomraCongestionWeight\":0}|QoMRA weights must not all be 0",
        "good qomra, bad alpha|{\"qomraK\":5,\"alpha\":-1}|'alpha' must be a finite number",
      })
  void badBodiesAreRefusedAndChangeNothing(String why, String body, String message) {
    String before = config();
    refused(400, message, put(JSON, body), before);
  }

  @Test
  void aBodyThatIsNotDeclaredJsonIsRefused() {
    String before = config();
    refused(
        415, "body must be application/json, got 'text/plain'", put("text/plain", "{}"), before);
    refused(415, "got no Content-Type", put(null, "{\"alpha\":0.3}"), before);
    assertEquals(200, put("application/json; charset=UTF-8", "{\"alpha\":0.3}").status());
  }

  @Test
  void postAndOtherMethodsAreRefusedWithAllow() {
    String before = config();
    RestApi.Response r = request("POST", JSON, null, "{\"alpha\":0.3}", RestAccess.LOOPBACK);
    refused(405, "method 'POST' not allowed", r, before);
    assertEquals("GET, PUT", r.headers().get("Allow"));
    RestApi.Response t = cp.rest().handle("PUT", "/mpqoe/topology", "{}");
    assertEquals(405, t.status());
    assertEquals("GET", t.headers().get("Allow"));
  }

  @Test
  void aLargeBadBodyIsNotEchoedBack() {
    String before = config();
    String big = "x".repeat(2_000_000);
    for (String body :
        new String[] {
          "{\"algorithm\":\"" + big.substring(0, 60_000) + "\"}",
          "{\"" + big.substring(0, 60_000) + "\":1}",
          big.substring(0, 60_000),
        }) {
      RestApi.Response r = put(JSON, body);
      assertEquals(400, r.status());
      assertTrue(r.json().length() < 600, r.json().length() + " characters: " + r.json());
    }
    refused(413, "body is larger than 65536 characters", put(JSON, big), before);
  }

  @Test
  void aValidPutChangesOnlyTheNamedSettings() {
    RestApi.Response r = put(JSON, "{\"algorithm\":\"fd-bw\",\"thrDelayMs\":120,\"alpha\":0}");
    assertEquals(200, r.status(), r.json());
    ControlConfig c = cp.router().config();
    assertEquals("fd-bw", c.algorithm());
    assertEquals(120.0, c.selection().thrDelayMs());
    assertEquals(0.0, c.selection().alpha());
    assertEquals(SelectionConfig.DEFAULTS.beta(), c.selection().beta(), "untouched settings stay");
    // alpha 1 and beta 0 in one body: judged together, whatever order the keys come in.
    assertEquals(200, put(JSON, "{\"beta\":0,\"alpha\":1}").status());
    assertEquals(1.0, cp.router().config().selection().alpha());
  }

  @Test
  void getShowsEverySettingOfTheSchema() {
    String json = config();
    for (SettingsSchema.Setting s : SettingsSchema.ALL) {
      assertTrue(json.contains("\"" + s.name() + "\":"), s.name() + " in " + json);
    }
  }

  @Test
  void writesBeyondLoopbackNeedTheToken() {
    String before = config();
    RestAccess open = RestAccess.of("0.0.0.0", null);
    RestAccess guarded = RestAccess.of("0.0.0.0", "s3cret");
    String body = "{\"alpha\":0.3}";
    RestApi.Response noToken = request("PUT", JSON, null, body, open);
    refused(401, "no REST token", noToken, before);
    assertEquals("Bearer realm=\"mpqoe\"", noToken.headers().get("WWW-Authenticate"));
    refused(
        401,
        "need 'Authorization: Bearer <token>'",
        request("PUT", JSON, null, body, guarded),
        before);
    refused(401, "wrong REST token", request("PUT", JSON, "Bearer nope", body, guarded), before);
    refused(401, "wrong REST token", request("POST", JSON, "Bearer x", body, guarded), before);
    assertEquals(200, request("GET", null, null, null, open).status(), "reads stay open");
    refused(401, "wrong REST token", request("PUT", JSON, "bearer S3CRET", body, guarded), before);
    assertEquals(200, request("PUT", JSON, "Bearer s3cret", body, guarded).status());
    assertEquals(0.3, cp.router().config().selection().alpha());
    // the scheme is case-insensitive (RFC 7235), the token is not
    String beta = "{\"alpha\":0.4}";
    assertEquals(200, request("PUT", JSON, "bearer s3cret", beta, guarded).status());
    assertEquals(200, request("PUT", JSON, "BEARER s3cret", body, guarded).status());
  }

  @Test
  void loopbackWritesMustNameALoopbackHost() {
    String before = config();
    String body = "{\"alpha\":0.3}";
    for (String evil :
        new String[] {"evil.example", "evil.example:8080", "10.0.0.1", "127.0.0.1.nip.io"}) {
      RestApi.Response r =
          cp.rest()
              .handle(
                  new RestApi.Request("PUT", "/mpqoe/config", JSON, null, body, evil, null),
                  RestAccess.LOOPBACK);
      refused(403, "must name a loopback host", r, before);
    }
    RestApi.Response read =
        cp.rest()
            .handle(
                new RestApi.Request("GET", "/mpqoe/config", null, null, null, "evil.example", null),
                RestAccess.LOOPBACK);
    assertEquals(200, read.status(), "reads stay open");
    for (String ok :
        new String[] {"127.0.0.1:8080", "localhost", "LOCALHOST:1", "127.1.2.3", "[::1]:8080"}) {
      RestApi.Response r =
          cp.rest()
              .handle(
                  new RestApi.Request("PUT", "/mpqoe/config", JSON, null, body, ok, null),
                  RestAccess.LOOPBACK);
      assertEquals(200, r.status(), ok + " " + r.json());
    }
    assertEquals(false, RestAccess.isLoopbackHost("[::1"));
    assertEquals(false, RestAccess.isLoopbackHost("::1"));
    assertEquals(false, RestAccess.isLoopbackHost("127.0.0.256"));
  }

  @Test
  void everyChangeIsLoggedWithItsClientNeverTheToken() {
    List<String> lines = new ArrayList<>();
    cp.rest().onChange(lines::add);
    RestAccess guarded = RestAccess.of("0.0.0.0", "s3cret");
    RestApi.Response r =
        cp.rest()
            .handle(
                new RestApi.Request(
                    "PUT",
                    "/mpqoe/config",
                    JSON,
                    "Bearer s3cret",
                    "{\"alpha\":0.3,\"algorithm\":\"exact\"}",
                    "ctl:8080",
                    "10.0.0.5:41000"),
                guarded);
    assertEquals(200, r.status(), r.json());
    assertEquals(1, lines.size(), lines.toString());
    String line = lines.get(0);
    assertTrue(line.startsWith("REST: configuration changed by 10.0.0.5:41000: "), line);
    assertTrue(line.contains("alpha 0.4 -> 0.3"), line);
    assertTrue(line.contains("algorithm ga -> exact"), line);
    assertTrue(!line.contains("s3cret"), "never the token: " + line);
    request("PUT", JSON, "Bearer nope", "{\"alpha\":0.2}", guarded);
    assertEquals(1, lines.size(), "a refused write changes nothing and logs no change");
  }

  @Test
  void clientAddressesAreWrittenOneWayInBothRuntimes() {
    assertEquals("10.0.0.5:41000", RestApi.Request.clientAddress("10.0.0.5", 41000));
    assertEquals("[::1]:8080", RestApi.Request.clientAddress("::1", 8080));
    assertEquals(null, RestApi.Request.clientAddress(null, 8080));
  }

  @Test
  void loopbackAddressesNeedNoToken() {
    assertEquals(false, RestAccess.of("127.0.0.1", null).tokenRequired());
    assertEquals(false, RestAccess.of("::1", null).tokenRequired());
    assertEquals(false, RestAccess.of("localhost", null).tokenRequired());
    assertEquals(true, RestAccess.of("0.0.0.0", "t").tokenRequired());
    assertEquals(true, RestAccess.of("no-such-host.invalid", "t").tokenRequired());
  }
}

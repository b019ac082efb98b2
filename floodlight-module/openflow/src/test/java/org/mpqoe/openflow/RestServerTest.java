package org.mpqoe.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.topology.TopologyLoader;

@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RestServerTest {
  private RestServer server;
  private String base;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void start() throws Exception {
    MptcpControlPlane plane =
        new MptcpControlPlane(TopologyLoader.load("three-path"), ControlConfig.defaults());
    server = new RestServer(plane.rest(), "127.0.0.1", 0);
    base = "http://127.0.0.1:" + server.start().getPort();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> call(String method, String path, String body) throws Exception {
    return call(method, path, body, body == null ? null : "application/json", null);
  }

  private HttpResponse<String> call(
      String method, String path, String body, String contentType, String authorization)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(5));
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aStalledClientDoesNotHoldUpOthersAndIsDisconnected() throws Exception {
    int port = server.address().getPort();
    try (Socket stalled = new Socket("127.0.0.1", port)) {
      // part of a request's headers, then silence
      OutputStream out = stalled.getOutputStream();
      out.write(
          "GET /mpqoe/topology HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      Thread.sleep(200);
      // others are answered meanwhile (each call gives up after 5 s)
      for (int i = 0; i < 3; i++) {
        assertEquals(200, call("GET", "/mpqoe/config", null).statusCode());
      }
      HttpResponse<String> put = call("PUT", "/mpqoe/config", "{\"algorithm\":\"pd-bw\"}");
      assertEquals(200, put.statusCode(), put.body());
      // and the stalled one is closed once its request time is up
      stalled.setSoTimeout((int) (RestServer.REQUEST_SECONDS + 10) * 1000);
      InputStream in = stalled.getInputStream();
      int got;
      do {
        got = in.read();
      } while (got >= 0);
      assertEquals(-1, got);
    }
  }

  /** One raw HTTP/1.1 request (any Host header); the status line's code. */
  private int raw(String method, String path, String host, String body) throws Exception {
    try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
      s.setSoTimeout(5000);
      String req =
          method
              + " "
              + path
              + " HTTP/1.1\r\nHost: "
              + host
              + "\r\nContent-Type: application/json\r\nContent-Length: "
              + body.length()
              + "\r\nConnection: close\r\n\r\n"
              + body;
      s.getOutputStream().write(req.getBytes(StandardCharsets.US_ASCII));
      String status = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
      return Integer.parseInt(status.substring(9, 12));
    }
  }

  @Test
  void loopbackWritesUnderAnotherHostNameAreRefused() throws Exception {
    String before = call("GET", "/mpqoe/config", null).body();
    assertEquals(403, raw("PUT", "/mpqoe/config", "rebound.example:8080", "{\"alpha\":0.3}"));
    assertEquals(before, call("GET", "/mpqoe/config", null).body(), "nothing changed");
    assertEquals(200, raw("GET", "/mpqoe/config", "rebound.example:8080", ""), "reads stay open");
    assertEquals(200, raw("PUT", "/mpqoe/config", "localhost:8080", "{\"alpha\":0.3}"));
  }

  @Test
  void getTopologyIsJson() throws Exception {
    HttpResponse<String> r = call("GET", "/mpqoe/topology", null);
    assertEquals(200, r.statusCode());
    assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""));
    assertTrue(r.body().contains("\"three-path\""), r.body());
    assertTrue(r.body().contains("\"links\""), r.body());
  }

  @Test
  void putConfigChangesTheAlgorithmAndBadBodiesAreTheCoresBadRequest() throws Exception {
    HttpResponse<String> ok = call("PUT", "/mpqoe/config", "{\"algorithm\":\"pd-bw\"}");
    assertEquals(200, ok.statusCode(), ok.body());
    assertTrue(call("GET", "/mpqoe/config", null).body().contains("pd-bw"));
    HttpResponse<String> bad = call("PUT", "/mpqoe/config", "{not json");
    assertEquals(400, bad.statusCode());
    assertEquals("application/json", bad.headers().firstValue("Content-Type").orElse(""));
    assertTrue(bad.body().contains("error"), bad.body());
  }

  @Test
  void statusCodesComeFromTheCore() throws Exception {
    assertEquals(404, call("GET", "/mpqoe/nothing", null).statusCode());
    assertEquals(405, call("DELETE", "/mpqoe/topology", null).statusCode());
    assertEquals(404, call("GET", "/elsewhere", null).statusCode());
  }

  @Test
  void theCoresRefusalsAndHeadersReachTheClient() throws Exception {
    String before = call("GET", "/mpqoe/config", null).body();
    HttpResponse<String> post = call("POST", "/mpqoe/config", "{\"alpha\":0.3}");
    assertEquals(405, post.statusCode());
    assertEquals("GET, PUT", post.headers().firstValue("Allow").orElse(""));
    HttpResponse<String> plain =
        call("PUT", "/mpqoe/config", "{\"alpha\":0.3}", "text/plain", null);
    assertEquals(415, plain.statusCode(), plain.body());
    HttpResponse<String> big = call("PUT", "/mpqoe/config", "x".repeat(2_000_000));
    assertEquals(413, big.statusCode());
    assertTrue(big.body().length() < 200, big.body());
    assertEquals(before, call("GET", "/mpqoe/config", null).body(), "nothing changed");
  }

  @Test
  void boundBeyondLoopbackWritesNeedTheToken() throws Exception {
    MptcpControlPlane plane =
        new MptcpControlPlane(TopologyLoader.load("three-path"), ControlConfig.defaults());
    try (RestServer open = new RestServer(plane.rest(), "0.0.0.0", 0, "s3cret")) {
      base = "http://127.0.0.1:" + open.start().getPort();
      String body = "{\"alpha\":0.3}";
      HttpResponse<String> none = call("PUT", "/mpqoe/config", body);
      assertEquals(401, none.statusCode(), none.body());
      assertTrue(none.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
      assertEquals(
          401, call("PUT", "/mpqoe/config", body, "application/json", "Bearer x").statusCode());
      assertEquals(200, call("GET", "/mpqoe/config", null).statusCode(), "reads stay open");
      HttpResponse<String> ok =
          call("PUT", "/mpqoe/config", body, "application/json", "Bearer s3cret");
      assertEquals(200, ok.statusCode(), ok.body());
      assertEquals(0.3, plane.router().config().selection().alpha());
    }
  }
}

package org.mpqoe.openflow;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.mpqoe.core.control.RestApi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST API over the JDK's HTTP server: every request under {@code /mpqoe/} goes to {@link
 * RestApi#handle} and its status and JSON are written back. What exists, which methods are allowed
 * and what a bad body is are the core's decisions; anything outside {@code /mpqoe/} is the HTTP
 * server's own 404.
 */
public final class RestServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RestServer.class);

  /** The context every resource lives under. */
  public static final String PREFIX = "/mpqoe/";

  private final RestApi api;
  private final String bindAddress;
  private final int port;
  private HttpServer server;

  /**
   * @param port TCP port, 0 for an ephemeral one (see {@link #address()})
   */
  public RestServer(RestApi api, String bindAddress, int port) {
    this.api = Objects.requireNonNull(api);
    this.bindAddress = Objects.requireNonNull(bindAddress);
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("REST port must be 0..65535, got " + port);
    }
    this.port = port;
  }

  /** Binds and starts serving; returns the bound address. */
  public synchronized InetSocketAddress start() throws IOException {
    if (server != null) {
      throw new IllegalStateException("already started");
    }
    HttpServer s = HttpServer.create(new InetSocketAddress(bindAddress, port), 0);
    s.createContext(PREFIX, this::handle);
    s.start();
    server = s;
    return address();
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      server.stop(0);
      server = null;
    }
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      RestApi.Response r;
      try {
        String body;
        try (InputStream in = ex.getRequestBody()) {
          body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        r = api.handle(ex.getRequestMethod(), ex.getRequestURI().getPath(), body);
      } catch (RuntimeException e) {
        LOG.error("REST {} {} failed", ex.getRequestMethod(), ex.getRequestURI(), e);
        r = new RestApi.Response(500, "{\"error\":\"internal error\"}");
      }
      byte[] out = r.json().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "application/json");
      boolean head = "HEAD".equals(ex.getRequestMethod());
      ex.sendResponseHeaders(r.status(), head || out.length == 0 ? -1 : out.length);
      if (!head && out.length > 0) {
        try (OutputStream os = ex.getResponseBody()) {
          os.write(out);
        }
      }
    }
  }
}

package org.mpqoe.openflow;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.mpqoe.core.control.RestAccess;
import org.mpqoe.core.control.RestApi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST API over the JDK's HTTP server: every request under {@code /mpqoe/} goes to {@link
 * RestApi#handle} with its content type and Authorization header, and its status, headers and JSON
 * are written back. What exists, which methods are allowed, what a bad body is and who may write
 * ({@link RestAccess}) are the core's decisions; anything outside {@code /mpqoe/} is the HTTP
 * server's own 404.
 *
 * <p>One client cannot stall the others: requests are read, handled and answered by a pool of
 * {@link #WORKERS} threads, never on the server's dispatcher thread, and a client that takes more
 * than {@link #REQUEST_SECONDS} to send its request (headers and body), or to take the answer
 * ({@link #RESPONSE_SECONDS}), is disconnected. An idle kept-alive connection is closed after
 * {@link #IDLE_SECONDS}.
 */
public final class RestServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RestServer.class);

  /** The context every resource lives under. */
  public static final String PREFIX = "/mpqoe/";

  /** Threads that read, handle and answer requests. */
  public static final int WORKERS = 8;

  /** Seconds a client may take to send one request, its headers and its body. */
  public static final long REQUEST_SECONDS = 10;

  /** Seconds a client may take to read one answer. */
  public static final long RESPONSE_SECONDS = 10;

  /** Seconds an idle kept-alive connection stays open. */
  public static final long IDLE_SECONDS = 30;

  static {
    // The JDK's server reads its limits from these properties once, when the first server of
    // the JVM is made (none is made before this class is initialised); a value given on the
    // command line is kept.
    setDefault("sun.net.httpserver.maxReqTime", REQUEST_SECONDS);
    setDefault("sun.net.httpserver.maxRspTime", RESPONSE_SECONDS);
    setDefault("sun.net.httpserver.idleInterval", IDLE_SECONDS);
  }

  private static void setDefault(String property, long seconds) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, Long.toString(seconds));
    }
  }

  private final RestApi api;
  private final String bindAddress;
  private final int port;
  private final RestAccess access;
  private HttpServer server;
  private ExecutorService workers;

  /** A server without a token: writes are open on loopback, refused anywhere else. */
  public RestServer(RestApi api, String bindAddress, int port) {
    this(api, bindAddress, port, null);
  }

  /**
   * @param port TCP port, 0 for an ephemeral one (see {@link #address()})
   * @param token the token writes must carry when {@code bindAddress} is not loopback; null for
   *     none
   */
  public RestServer(RestApi api, String bindAddress, int port, String token) {
    this.api = Objects.requireNonNull(api);
    this.bindAddress = Objects.requireNonNull(bindAddress);
    this.access = RestAccess.of(bindAddress, token);
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("REST port must be 0..65535, got " + port);
    }
    this.port = port;
    api.onChange(LOG::info);
  }

  /** Binds and starts serving; returns the bound address. */
  public synchronized InetSocketAddress start() throws IOException {
    if (server != null) {
      throw new IllegalStateException("already started");
    }
    HttpServer s = HttpServer.create(new InetSocketAddress(bindAddress, port), 0);
    s.createContext(PREFIX, this::handle);
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            WORKERS,
            r -> {
              Thread t = new Thread(r, "mpqoe-rest-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    s.setExecutor(pool);
    s.start();
    server = s;
    workers = pool;
    return address();
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** Who may write (token needed or not). */
  public RestAccess access() {
    return access;
  }

  @Override
  public synchronized void close() {
    if (server != null) {
      server.stop(0);
      workers.shutdownNow();
      server = null;
      workers = null;
    }
  }

  /** address:port, [v6]:port for IPv6; null if unknown. */
  private static String client(InetSocketAddress a) {
    return a == null || a.getAddress() == null
        ? null
        : RestApi.Request.clientAddress(a.getAddress().getHostAddress(), a.getPort());
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      RestApi.Response r;
      try {
        String body;
        try (InputStream in = ex.getRequestBody()) {
          // Enough for the largest body the core accepts, and more: it refuses a larger one.
          // The rest is read and dropped, never held, so that the client gets the answer.
          body = new String(in.readNBytes(4 * RestApi.MAX_BODY + 1), StandardCharsets.UTF_8);
          in.transferTo(OutputStream.nullOutputStream());
        }
        var headers = ex.getRequestHeaders();
        r =
            api.handle(
                new RestApi.Request(
                    ex.getRequestMethod(),
                    ex.getRequestURI().getPath(),
                    headers.getFirst("Content-Type"),
                    headers.getFirst("Authorization"),
                    body.isEmpty() ? null : body,
                    headers.getFirst("Host"),
                    client(ex.getRemoteAddress())),
                access);
      } catch (RuntimeException e) {
        LOG.error("REST {} {} failed", ex.getRequestMethod(), ex.getRequestURI(), e);
        r = new RestApi.Response(500, "{\"error\":\"internal error\"}");
      }
      byte[] out = r.json().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "application/json");
      r.headers().forEach(ex.getResponseHeaders()::set);
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

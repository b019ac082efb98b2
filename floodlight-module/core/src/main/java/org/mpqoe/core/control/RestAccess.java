package org.mpqoe.core.control;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * Who may change the controller through REST. Reads are open. Writes are open while the API listens
 * on a loopback address only, to requests whose {@code Host} header names a loopback address
 * ({@code localhost}, 127.0.0.0/8, {@code ::1}, as written, never resolved): a page in a local
 * browser that reached the API through a name of its own (DNS rebinding) is refused. Bound to
 * anything else (a LAN address, 0.0.0.0), every write must carry {@code Authorization: Bearer
 * <token>} with the token the runtime was given, and without a configured token every write is
 * refused.
 *
 * @param loopbackOnly the REST server listens on a loopback address only
 * @param token the token writes must carry when not loopback-only; null when none was given
 */
public record RestAccess(boolean loopbackOnly, String token) {
  private static final String BEARER = "Bearer ";

  /** A server on a loopback address: writes need no token. */
  public static final RestAccess LOOPBACK = new RestAccess(true, null);

  public RestAccess {
    if (token != null && token.isBlank()) {
      token = null;
    }
  }

  /**
   * The access rule of a server bound to {@code bindAddress} (a name that does not resolve counts
   * as not loopback).
   *
   * @param token the configured token, null or blank for none
   */
  public static RestAccess of(String bindAddress, String token) {
    boolean loopback;
    try {
      loopback = bindAddress != null && InetAddress.getByName(bindAddress).isLoopbackAddress();
    } catch (UnknownHostException e) {
      loopback = false;
    }
    return new RestAccess(loopback, token == null ? null : token.trim());
  }

  /** {@code localhost}, 127.x.y.z or {@code ::1}, with or without a port; names never resolved. */
  static boolean isLoopbackHost(String host) {
    String h = host.trim();
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      if (end < 0 || !(h.length() == end + 1 || h.charAt(end + 1) == ':')) {
        return false;
      }
      h = h.substring(1, end);
      return h.equals("::1") || h.equals("0:0:0:0:0:0:0:1");
    }
    int colon = h.indexOf(':');
    if (colon >= 0) {
      if (h.indexOf(':', colon + 1) >= 0) {
        return false; // an IPv6 address without brackets is not a valid Host
      }
      h = h.substring(0, colon);
    }
    return h.equalsIgnoreCase("localhost")
        || h.matches("127\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){2}");
  }

  /** Whether writes need a token. */
  public boolean tokenRequired() {
    return !loopbackOnly;
  }

  /** Reads, the only methods that never need a token. */
  static boolean isRead(String method) {
    return "GET".equals(method) || "HEAD".equals(method);
  }

  /**
   * Null if the request may go on, else the 401 answer (with {@code WWW-Authenticate}) or, for a
   * write to a loopback-only server under another host name, 403.
   *
   * @param authorization the request's {@code Authorization} header, null if absent
   * @param host the request's {@code Host} header, null if absent (not over HTTP)
   */
  RestApi.Response check(String method, String authorization, String host) {
    if (isRead(method)) {
      return null;
    }
    if (loopbackOnly) {
      return host == null || isLoopbackHost(host)
          ? null
          : RestApi.error(
              403,
              "REST writes to a loopback-only server must name a loopback host, got Host "
                  + SettingsSchema.quote(host),
              Map.of());
    }
    String why;
    if (token == null) {
      why =
          "REST writes are refused: the API listens beyond loopback and the controller has no"
              + " REST token (set one: docs/floodlight.md, REST)";
    } else if (authorization == null
        || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      // the scheme is case-insensitive (RFC 7235, 2.1); the token is not
      why = "REST writes need 'Authorization: Bearer <token>' when the API listens beyond loopback";
    } else if (!MessageDigest.isEqual(
        authorization.substring(BEARER.length()).trim().getBytes(StandardCharsets.UTF_8),
        token.getBytes(StandardCharsets.UTF_8))) {
      why = "wrong REST token";
    } else {
      return null;
    }
    return RestApi.error(401, why, Map.of("WWW-Authenticate", "Bearer realm=\"mpqoe\""));
  }
}

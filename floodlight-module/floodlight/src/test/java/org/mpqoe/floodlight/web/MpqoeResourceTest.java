package org.mpqoe.floodlight.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.ControlConfig;
import org.mpqoe.core.control.MptcpControlPlane;
import org.mpqoe.core.control.RestAccess;
import org.mpqoe.core.topology.TopologyLoader;
import org.mpqoe.floodlight.IMpqoeService;
import org.mpqoe.floodlight.MpqoeSettings;
import org.restlet.Context;
import org.restlet.Request;
import org.restlet.Response;
import org.restlet.Restlet;
import org.restlet.data.MediaType;
import org.restlet.data.Method;
import org.restlet.data.Reference;
import org.restlet.representation.StringRepresentation;

/** The routes and the resource in memory, as Floodlight's RestApiServer mounts them. */
class MpqoeResourceTest {
  private final MptcpControlPlane plane =
      new MptcpControlPlane(TopologyLoader.load("three-path"), ControlConfig.defaults());
  private final Restlet routes;
  private RestAccess access = RestAccess.LOOPBACK;

  MpqoeResourceTest() {
    Context context = new Context();
    IMpqoeService service =
        new IMpqoeService() {
          @Override
          public MptcpControlPlane plane() {
            return plane;
          }

          @Override
          public MpqoeSettings settings() {
            return null;
          }

          @Override
          public RestAccess restAccess() {
            return access;
          }
        };
    // RestApiServer.run() puts every service into the context under its interface's name.
    context.getAttributes().put(IMpqoeService.class.getCanonicalName(), service);
    MpqoeWebRoutable routable = new MpqoeWebRoutable();
    assertEquals("/wm/mpqoe", routable.basePath());
    routes = routable.getRestlet(context);
  }

  private Response call(Method method, String path, String body) {
    return call(method, path, body, MediaType.APPLICATION_JSON, null);
  }

  private Response call(
      Method method, String path, String body, MediaType type, String authorization) {
    Request req = new Request(method, "http://127.0.0.1:8080/wm/mpqoe" + path);
    req.getResourceRef().setBaseRef(new Reference("http://127.0.0.1:8080/wm/mpqoe"));
    if (body != null) {
      req.setEntity(new StringRepresentation(body, type));
    }
    if (authorization != null) {
      req.getHeaders().add("Authorization", authorization);
    }
    Response res = new Response(req);
    routes.handle(req, res);
    return res;
  }

  private static String text(Response r) throws Exception {
    return r.getEntity() == null ? "" : r.getEntity().getText();
  }

  @Test
  void getAnswersTheCoresJson() throws Exception {
    for (String path : new String[] {"/config", "/config/json"}) {
      Response r = call(Method.GET, path, null);
      assertEquals(200, r.getStatus().getCode(), path);
      assertEquals(MediaType.APPLICATION_JSON, r.getEntity().getMediaType());
      assertEquals(plane.rest().handle("GET", "/mpqoe/config", null).json(), text(r), path);
    }
    Response topo = call(Method.GET, "/topology", null);
    assertTrue(text(topo).startsWith("{\"name\":\"three-path\""));
    assertEquals("[]", text(call(Method.GET, "/connections", null)));
    assertEquals("[]", text(call(Method.GET, "/clients", null)));
  }

  @Test
  void putChangesTheConfigAndErrorsKeepTheirStatusAndBody() throws Exception {
    Response r = call(Method.PUT, "/config", "{\"algorithm\":\"exact\",\"thrDelayMs\":20}");
    assertEquals(200, r.getStatus().getCode());
    assertTrue(text(r).contains("\"algorithm\":\"exact\""));
    assertEquals("exact", plane.router().config().algorithm());

    Response bad = call(Method.PUT, "/config", "{\"colour\":1}");
    assertEquals(400, bad.getStatus().getCode());
    assertTrue(text(bad).startsWith("{\"error\":\"unknown field 'colour'"), text(bad));

    Response missing = call(Method.GET, "/nothing", null);
    assertEquals(404, missing.getStatus().getCode());
    assertEquals("{\"error\":\"no resource /mpqoe/nothing\"}", text(missing));

    Response wrong = call(Method.PUT, "/connections", "{}");
    assertEquals(405, wrong.getStatus().getCode());
    assertEquals(Set.of(Method.GET), wrong.getAllowedMethods());
  }

  @Test
  void theCoresRefusalsReachTheClient() throws Exception {
    String before = plane.rest().handle("GET", "/mpqoe/config", null).json();
    Response post = call(Method.POST, "/config", "{\"alpha\":0.3}");
    assertEquals(405, post.getStatus().getCode());
    assertEquals(Set.of(Method.GET, Method.PUT), post.getAllowedMethods());
    Response plain = call(Method.PUT, "/config", "{\"alpha\":0.3}", MediaType.TEXT_PLAIN, null);
    assertEquals(415, plain.getStatus().getCode(), text(plain));
    Response trailing = call(Method.PUT, "/config", "{\"alpha\":0.3} x");
    assertEquals(400, trailing.getStatus().getCode(), text(trailing));
    assertEquals(before, plane.rest().handle("GET", "/mpqoe/config", null).json());
  }

  @Test
  void everyOtherMethodIsTheCores405WithItsAllow() throws Exception {
    String before = plane.rest().handle("GET", "/mpqoe/config", null).json();
    for (Method m : new Method[] {Method.DELETE, Method.OPTIONS, Method.PATCH}) {
      Response config = call(m, "/config", m == Method.PATCH ? "{\"alpha\":0.3}" : null);
      assertEquals(405, config.getStatus().getCode(), m + " " + text(config));
      assertEquals(Set.of(Method.GET, Method.PUT), config.getAllowedMethods(), m.toString());
      assertTrue(text(config).contains("not allowed"), text(config));
      Response connections = call(m, "/connections", null);
      assertEquals(405, connections.getStatus().getCode(), m.toString());
      assertEquals(Set.of(Method.GET), connections.getAllowedMethods(), m.toString());
    }
    assertEquals(before, plane.rest().handle("GET", "/mpqoe/config", null).json());
    assertEquals(200, call(Method.HEAD, "/config", null).getStatus().getCode(), "HEAD is GET");
  }

  @Test
  void beyondLoopbackWritesNeedTheToken() throws Exception {
    access = RestAccess.of("0.0.0.0", "s3cret");
    String body = "{\"alpha\":0.3}";
    Response none = call(Method.PUT, "/config", body);
    assertEquals(401, none.getStatus().getCode(), text(none));
    assertEquals(1, none.getChallengeRequests().size(), "WWW-Authenticate");
    Response wrong = call(Method.PUT, "/config", body, MediaType.APPLICATION_JSON, "Bearer x");
    assertEquals(401, wrong.getStatus().getCode());
    assertEquals(200, call(Method.GET, "/config", null).getStatus().getCode(), "reads stay open");
    Response right = call(Method.PUT, "/config", body, MediaType.APPLICATION_JSON, "Bearer s3cret");
    assertEquals(200, right.getStatus().getCode(), text(right));
    assertEquals(0.3, plane.router().config().selection().alpha());
  }
}

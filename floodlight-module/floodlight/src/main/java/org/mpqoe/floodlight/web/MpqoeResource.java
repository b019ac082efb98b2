package org.mpqoe.floodlight.web;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.mpqoe.core.control.RestApi;
import org.mpqoe.floodlight.IMpqoeService;
import org.restlet.data.ChallengeRequest;
import org.restlet.data.ChallengeResponse;
import org.restlet.data.ChallengeScheme;
import org.restlet.data.MediaType;
import org.restlet.data.Method;
import org.restlet.data.Status;
import org.restlet.representation.Representation;
import org.restlet.representation.StringRepresentation;
import org.restlet.resource.ServerResource;

/**
 * One mpqoe resource: every request, whatever its method, goes to the core's {@link RestApi} with
 * its content type and Authorization header (HEAD as GET, its body dropped by the server); the
 * core's status, headers and JSON body are the answer, unchanged (the same API, checks and bodies
 * as the standalone runtime, e.g. 405 with the core's Allow for DELETE, OPTIONS or PATCH).
 */
public class MpqoeResource extends ServerResource {
  /** The core's Allow header of a 405 answer (Restlet fills the response's from this). */
  private final Set<Method> allowed = new LinkedHashSet<>();

  /** Restlet asks this after a 405: the core's answer, not the annotations (there are none). */
  @Override
  public void updateAllowedMethods() {
    getResponse().getAllowedMethods().clear();
    getResponse().getAllowedMethods().addAll(allowed);
  }

  @Override
  protected void doInit() {
    // No content negotiation (the core always answers JSON) and no conditional requests: every
    // request reaches doHandle().
    setNegotiated(false);
    setConditional(false);
  }

  /** Every method, not only those Restlet maps to get(), put(), ...: the core decides. */
  @Override
  protected Representation doHandle() {
    Method m = getMethod();
    Representation entity = getRequestEntity();
    return answer(
        Method.HEAD.equals(m) ? "GET" : m.getName(),
        entity != null && entity.isAvailable() ? entity : null);
  }

  private Representation answer(String method, Representation entity) {
    IMpqoeService mpqoe =
        (IMpqoeService) getContext().getAttributes().get(IMpqoeService.class.getCanonicalName());
    String resource = (String) getRequestAttributes().get("resource");
    MediaType type = entity == null ? null : entity.getMediaType();
    RestApi.Request request =
        new RestApi.Request(
            method,
            "/mpqoe/" + resource,
            type == null ? null : type.toString(),
            authorization(),
            text(entity),
            getRequest().getHeaders().getFirstValue("Host", true),
            RestApi.Request.clientAddress(getClientInfo().getAddress(), getClientInfo().getPort()));
    RestApi.Response r = mpqoe.plane().rest().handle(request, mpqoe.restAccess());
    setStatus(Status.valueOf(r.status()));
    for (Map.Entry<String, String> h : r.headers().entrySet()) {
      if (h.getKey().equals("Allow")) {
        for (String m : h.getValue().split(",")) {
          allowed.add(Method.valueOf(m.trim()));
        }
      } else if (h.getKey().equals("WWW-Authenticate")) {
        getResponse()
            .getChallengeRequests()
            .add(new ChallengeRequest(ChallengeScheme.HTTP_OAUTH_BEARER, "mpqoe"));
      }
    }
    return new StringRepresentation(r.json(), MediaType.APPLICATION_JSON);
  }

  /** The Authorization header as sent; Restlet may have parsed it into a challenge response. */
  private String authorization() {
    String raw = getRequest().getHeaders().getFirstValue("Authorization", true);
    if (raw != null) {
      return raw;
    }
    ChallengeResponse c = getRequest().getChallengeResponse();
    if (c != null && ChallengeScheme.HTTP_OAUTH_BEARER.equals(c.getScheme())) {
      return "Bearer " + (c.getRawValue() != null ? c.getRawValue() : new String(c.getSecret()));
    }
    return null;
  }

  private static String text(Representation entity) {
    try {
      return entity == null ? null : entity.getText();
    } catch (IOException e) {
      return null;
    }
  }
}

package org.mpqoe.floodlight.web;

import java.io.IOException;
import org.mpqoe.core.control.RestApi;
import org.mpqoe.floodlight.IMpqoeService;
import org.restlet.data.MediaType;
import org.restlet.data.Status;
import org.restlet.representation.Representation;
import org.restlet.representation.StringRepresentation;
import org.restlet.resource.ServerResource;

/**
 * One mpqoe resource: GET, PUT and POST go to the core's {@link RestApi}, whose status and JSON
 * body are the answer, unchanged (the same API and bodies as the standalone runtime).
 */
public class MpqoeResource extends ServerResource {
  @Override
  protected void doInit() {
    // No content negotiation: the core always answers JSON.
    setNegotiated(false);
  }

  @Override
  protected Representation get() {
    return answer("GET", null);
  }

  @Override
  protected Representation put(Representation entity) {
    return answer("PUT", text(entity));
  }

  @Override
  protected Representation post(Representation entity) {
    return answer("POST", text(entity));
  }

  private Representation answer(String method, String body) {
    IMpqoeService mpqoe =
        (IMpqoeService) getContext().getAttributes().get(IMpqoeService.class.getCanonicalName());
    String resource = (String) getRequestAttributes().get("resource");
    RestApi.Response r = mpqoe.plane().rest().handle(method, "/mpqoe/" + resource, body);
    setStatus(Status.valueOf(r.status()));
    return new StringRepresentation(r.json(), MediaType.APPLICATION_JSON);
  }

  private static String text(Representation entity) {
    try {
      return entity == null ? null : entity.getText();
    } catch (IOException e) {
      return null;
    }
  }
}

package org.restlet.resource;

import java.util.Map;
import org.restlet.Context;
import org.restlet.Request;
import org.restlet.Response;
import org.restlet.Stand;
import org.restlet.data.ClientInfo;
import org.restlet.data.Method;
import org.restlet.data.Status;
import org.restlet.representation.Representation;

/** One resource instance per call (Restlet's server-side resource). */
public abstract class ServerResource {
  protected void doInit() {}

  protected Representation doHandle() {
    throw Stand.in();
  }

  public void updateAllowedMethods() {}

  public void setNegotiated(boolean negotiated) {}

  public void setConditional(boolean conditional) {}

  public Method getMethod() {
    throw Stand.in();
  }

  public Representation getRequestEntity() {
    throw Stand.in();
  }

  public Context getContext() {
    throw Stand.in();
  }

  public Map<String, Object> getRequestAttributes() {
    throw Stand.in();
  }

  public Request getRequest() {
    throw Stand.in();
  }

  public Response getResponse() {
    throw Stand.in();
  }

  public ClientInfo getClientInfo() {
    throw Stand.in();
  }

  public void setStatus(Status status) {}
}

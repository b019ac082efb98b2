package org.restlet.routing;

import org.restlet.Context;
import org.restlet.Restlet;
import org.restlet.resource.ServerResource;

/** Routes calls by URI template to resources. */
public class Router extends Restlet {
  public Router(Context context) {
    super(context);
  }

  /** Attaches a resource class to a URI template (nothing routes in this stand-in). */
  public TemplateRoute attach(String pathTemplate, Class<? extends ServerResource> targetClass) {
    return null;
  }
}

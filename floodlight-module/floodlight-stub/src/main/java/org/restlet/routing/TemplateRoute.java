package org.restlet.routing;

/** A route a router attached. */
public class TemplateRoute {
  protected TemplateRoute() {}
}

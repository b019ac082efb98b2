package net.floodlightcontroller.restserver;

import org.restlet.Context;
import org.restlet.Restlet;

/** A module's REST routes under one base path. */
public interface RestletRoutable {
  Restlet getRestlet(Context context);

  String basePath();
}

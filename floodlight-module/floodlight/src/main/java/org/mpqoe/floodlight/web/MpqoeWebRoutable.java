package org.mpqoe.floodlight.web;

import net.floodlightcontroller.restserver.RestletRoutable;
import org.restlet.Context;
import org.restlet.Restlet;
import org.restlet.routing.Router;

/**
 * mpqoe's REST API in Floodlight: {@code /wm/mpqoe/<resource>} (also {@code .../<resource>/json},
 * Floodlight's habit) is the standalone runtime's {@code /mpqoe/<resource>}.
 */
public class MpqoeWebRoutable implements RestletRoutable {
  @Override
  public Restlet getRestlet(Context context) {
    Router router = new Router(context);
    router.attach("/{resource}", MpqoeResource.class);
    router.attach("/{resource}/json", MpqoeResource.class);
    return router;
  }

  @Override
  public String basePath() {
    return "/wm/mpqoe";
  }
}

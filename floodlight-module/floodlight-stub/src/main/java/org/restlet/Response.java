package org.restlet;

import java.util.List;
import java.util.Set;
import org.restlet.data.ChallengeRequest;
import org.restlet.data.Method;

/** A call's response. */
public class Response {
  protected Response() {}

  public Set<Method> getAllowedMethods() {
    throw Stand.in();
  }

  public List<ChallengeRequest> getChallengeRequests() {
    throw Stand.in();
  }
}

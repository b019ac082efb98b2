package org.restlet;

import org.restlet.data.ChallengeResponse;
import org.restlet.data.Header;
import org.restlet.util.Series;

/** A call's request. */
public class Request {
  protected Request() {}

  public Series<Header> getHeaders() {
    throw Stand.in();
  }

  public ChallengeResponse getChallengeResponse() {
    throw Stand.in();
  }
}

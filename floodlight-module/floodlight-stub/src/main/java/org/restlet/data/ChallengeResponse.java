package org.restlet.data;

import org.restlet.Stand;

/** Credentials of a request, as Restlet parsed its Authorization header. */
public class ChallengeResponse {
  protected ChallengeResponse() {}

  public ChallengeScheme getScheme() {
    throw Stand.in();
  }

  public String getRawValue() {
    throw Stand.in();
  }

  public char[] getSecret() {
    throw Stand.in();
  }
}

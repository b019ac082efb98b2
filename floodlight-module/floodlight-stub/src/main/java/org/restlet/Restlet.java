package org.restlet;

/** Something that handles calls. */
public abstract class Restlet {
  private final Context context;

  protected Restlet(Context context) {
    this.context = context;
  }

  public Context getContext() {
    return context;
  }
}

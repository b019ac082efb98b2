package org.restlet.data;

/** An HTTP status. */
public final class Status {
  private final int code;

  private Status(int code) {
    this.code = code;
  }

  public static Status valueOf(int code) {
    return new Status(code);
  }

  public int getCode() {
    return code;
  }
}

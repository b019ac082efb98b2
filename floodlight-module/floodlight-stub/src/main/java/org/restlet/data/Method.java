package org.restlet.data;

import java.util.Objects;

/** An HTTP method. */
public final class Method {
  public static final Method HEAD = new Method("HEAD");

  private final String name;

  private Method(String name) {
    this.name = name;
  }

  public static Method valueOf(String name) {
    return new Method(Objects.requireNonNull(name));
  }

  public String getName() {
    return name;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Method m && name.equals(m.name);
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    return name;
  }
}

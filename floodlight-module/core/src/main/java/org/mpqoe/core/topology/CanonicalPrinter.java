package org.mpqoe.core.topology;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;

/** Two-space indentation with arrays one element per line, the layout of committed descriptors. */
final class CanonicalPrinter extends DefaultPrettyPrinter {
  private static final long serialVersionUID = 1L;

  CanonicalPrinter() {
    DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
    indentObjectsWith(indenter);
    indentArraysWith(indenter);
    _objectFieldValueSeparatorWithSpaces = ": ";
  }

  @Override
  public DefaultPrettyPrinter createInstance() {
    return new CanonicalPrinter();
  }
}

package org.mpqoe.cli;

import java.util.Iterator;
import org.mpqoe.core.select.Selectors;

/** The algorithm names of {@link Selectors}, for picocli's help text: the registry is the list. */
final class AlgorithmNames implements Iterable<String> {
  @Override
  public Iterator<String> iterator() {
    return Selectors.NAMES.iterator();
  }
}

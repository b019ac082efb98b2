package org.mpqoe.core.topology;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A named way to attach hosts to a topology's switches: interface k of every generated client on
 * {@code clients[k]}, interface k of the server on {@code server[k]}. Attachments are data, one
 * file per topology in {@code topologies/attachments/NAME.json} (embedded like the descriptors),
 * keyed by the descriptor's name.
 */
public record Attachment(
    String name, String description, List<String> clients, List<String> server) {
  private static final String DIR = "topologies/attachments/";
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public Attachment {
    clients = List.copyOf(clients);
    server = List.copyOf(server);
  }

  /** The file's form. */
  record FileJson(String topology, Map<String, EntryJson> attachments) {}

  /** One attachment in the file. */
  record EntryJson(String description, List<String> clients, List<String> server) {}

  /** The named attachments of {@code t}, in file order; empty when it has none. */
  public static Map<String, Attachment> of(Topology t) {
    String origin = DIR + t.name() + ".json";
    String text;
    try (InputStream in = Attachment.class.getClassLoader().getResourceAsStream(origin)) {
      if (in == null) {
        return Map.of();
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return parse(text, origin, t);
  }

  /** Parses an attachments file for {@code t}; {@code origin} names it in error messages. */
  static Map<String, Attachment> parse(String text, String origin, Topology t) {
    FileJson f;
    try {
      f = MAPPER.readValue(text, FileJson.class);
    } catch (JsonProcessingException e) {
      throw new TopologyException(origin + ": not an attachments file: " + e.getOriginalMessage());
    }
    if (f == null || !t.name().equals(f.topology()) || f.attachments() == null) {
      throw new TopologyException(
          origin + ": wants \"topology\": \"" + t.name() + "\" and \"attachments\"");
    }
    Map<String, Attachment> out = new LinkedHashMap<>();
    f.attachments()
        .forEach(
            (name, e) -> {
              String where = origin + ": attachment '" + name + "'";
              if (e == null || e.clients() == null || e.server() == null) {
                throw new TopologyException(where + " wants \"clients\" and \"server\"");
              }
              if (e.clients().isEmpty() || e.server().isEmpty()) {
                throw new TopologyException(where + " lists no switch for clients or server");
              }
              for (String s : concat(e.clients(), e.server())) {
                if (t.switchNamed(s).isEmpty()) {
                  throw new TopologyException(
                      where + ": " + t.name() + " has no switch '" + s + "'");
                }
              }
              out.put(name, new Attachment(name, e.description(), e.clients(), e.server()));
            });
    return out;
  }

  /**
   * The attachment {@code name} of {@code t}.
   *
   * @throws TopologyException naming the known ones when {@code t} has no such attachment
   */
  public static Attachment named(Topology t, String name) {
    Map<String, Attachment> known = of(t);
    Attachment a = known.get(name);
    if (a == null) {
      throw new TopologyException(
          t.name()
              + " has no attachment '"
              + name
              + "' (known: "
              + (known.isEmpty() ? "none" : String.join(", ", known.keySet()))
              + ")");
    }
    return a;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}

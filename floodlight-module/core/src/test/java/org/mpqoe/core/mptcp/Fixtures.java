package org.mpqoe.core.mptcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** The handshake fixtures of src/test/resources/fixtures (see tools/capture_mptcp_fixtures.py). */
final class Fixtures {
  static final List<String> NAMES =
      List.of("mptcp-v1-basic.json", "mptcp-v1-csum-backup.json", "mptcp-v0-handmade.json");

  /** One fixture file. */
  record Fixture(String name, JsonNode json, List<FixtureFrame> frames) {
    int version() {
      return json.get("mptcpVersion").asInt();
    }

    long derivedKey(String field) {
      return Long.parseUnsignedLong(json.get("derived").get(field).asText(), 16);
    }

    int serverPort() {
      return json.get("server").get("port").asInt();
    }

    FixtureFrame frame(String label) {
      return frames.stream()
          .filter(f -> f.label().equals(label))
          .findFirst()
          .orElseThrow(() -> new AssertionError(name + " has no " + label));
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** One frame of a fixture. */
  record FixtureFrame(String label, String expect, String iface, String direction, byte[] bytes) {}

  private Fixtures() {}

  static List<Fixture> all() {
    List<Fixture> all = new ArrayList<>();
    for (String name : NAMES) {
      all.add(load(name));
    }
    return all;
  }

  /** Every frame of every fixture. */
  static List<byte[]> allFrames() {
    return all().stream().flatMap(f -> f.frames().stream()).map(FixtureFrame::bytes).toList();
  }

  static Fixture load(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing fixture " + name);
      }
      JsonNode json = new ObjectMapper().readTree(in);
      List<FixtureFrame> frames = new ArrayList<>();
      for (JsonNode f : json.get("frames")) {
        frames.add(
            new FixtureFrame(
                f.get("label").asText(),
                f.get("expect").asText(),
                f.get("interface").asText(),
                f.get("direction").asText(),
                HexFormat.of().parseHex(f.get("hex").asText())));
      }
      return new Fixture(name, json, List.copyOf(frames));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

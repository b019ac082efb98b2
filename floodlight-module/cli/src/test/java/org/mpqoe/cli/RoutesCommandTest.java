package org.mpqoe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpqoe.cli.MainTest.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mpqoe topology routes}: the forwarding tables the scheduler experiments install. */
class RoutesCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static JsonNode routes(String... args) throws IOException {
    List<String> argv = new ArrayList<>(List.of("topology", "routes"));
    argv.addAll(List.of(args));
    MainTest.Run r = run(argv.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    return JSON.readTree(r.out());
  }

  @Test
  void fullMeshCrossTablesTakeTheLowerPortOnATie() throws IOException {
    JsonNode doc = routes("fullmesh-cross");
    assertEquals("mpqoe-routes/1", doc.get("schema").asText());
    assertEquals("fullmesh-cross", doc.get("topology").asText());
    assertEquals(8, doc.get("maxHops").asInt());
    JsonNode ca = doc.at("/routes/ca");
    // the server's switches: one shortest path each, through ra (port 1) and rb (port 2)
    assertEquals(1, ca.at("/sa/port").asInt());
    assertEquals("ra", ca.at("/sa/next").asText());
    assertEquals(2, ca.at("/sb/port").asInt());
    assertEquals("rb", ca.at("/sb/next").asText());
    assertEquals(2, ca.at("/sb/hops").asInt());
    // ca -> cb ties between ra (link 0, port 1) and rb (link 1, port 2): the lower wins
    assertEquals(0, ca.at("/cb/link").asInt());
    assertEquals(1, ca.at("/cb/port").asInt());
    // sa has one link (index 4, port 1) and reaches every other switch through it
    JsonNode sa = doc.at("/routes/sa");
    assertEquals(5, sa.size());
    sa.forEach(hop -> assertEquals(4, hop.get("link").asInt()));
  }

  @Test
  void disconnectedSwitchesHaveNoRouteAndEverySwitchATable() throws IOException {
    JsonNode doc = routes("parallel");
    List<String> switches = new ArrayList<>();
    doc.get("routes").fieldNames().forEachRemaining(switches::add);
    assertEquals(List.of("ca", "cb", "sa", "sb"), switches);
    assertEquals(List.of("sa"), names(doc.at("/routes/ca")));
    assertEquals(List.of("ca"), names(doc.at("/routes/sa")));
  }

  @Test
  void maxHopsBoundsTheTables() throws IOException {
    JsonNode doc = routes("fullmesh-cross", "--max-hops", "1");
    assertEquals(List.of("ra", "rb"), names(doc.at("/routes/ca")));
    MainTest.Run bad = run("topology", "routes", "fullmesh-cross", "--max-hops", "0");
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("--max-hops"), bad.err());
  }

  @Test
  void outWritesWhatStdoutPrints() throws IOException {
    Path file = dir.resolve("routes.json");
    MainTest.Run w = run("topology", "routes", "three-path", "-o", file.toString());
    assertEquals(0, w.code(), w.err());
    assertEquals(run("topology", "routes", "three-path").out(), Files.readString(file));
  }

  private static List<String> names(JsonNode table) {
    List<String> out = new ArrayList<>();
    table.fieldNames().forEachRemaining(out::add);
    return out;
  }
}

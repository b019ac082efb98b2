package org.mpqoe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpqoe.cli.MainTest.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mpqoe.core.topology.Topology;
import org.mpqoe.core.topology.TopologyLoader;

/** {@code mpqoe topology with-clients}: the experiment descriptor. */
class WithClientsCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}, {1} clients, seed {2}")
  @CsvSource({"compuserve, 5, 1", "custom12, 10, 3"})
  void selectOnTheWrittenFileSeesWhatSelectDraws(String topology, int clients, long seed)
      throws IOException {
    Path file = dir.resolve("d.json");
    String c = String.valueOf(clients);
    String s = String.valueOf(seed);
    MainTest.Run w =
        run(
            "topology",
            "with-clients",
            topology,
            "-c",
            c,
            "-s",
            s,
            "--links",
            "paper",
            "-o",
            file.toString());
    assertEquals(0, w.code(), w.err());
    JsonNode drawn =
        selection(
            run(
                "select",
                "-t",
                topology,
                "-c",
                c,
                "-s",
                s,
                "--links",
                "paper",
                "--format",
                "json"));
    JsonNode experiment =
        selection(
            run(
                "select",
                "-t",
                file.toString(),
                "-c",
                c,
                "-s",
                s,
                "--links",
                "descriptor",
                "--format",
                "json"));
    assertEquals(drawn.get("joins"), experiment.get("joins"));
    JsonNode realised = drawn.get("linkBandwidthMbps");
    assertEquals(realised.get("realisedMean"), experiment.at("/linkBandwidthMbps/realisedMean"));
    JsonNode draw = JSON.readTree(file.toFile()).get("draw");
    assertEquals(realised.get("realisedMean").asDouble(), draw.at("/realisedMbps/mean").asDouble());
    assertEquals(realised.get("paperMean").asDouble(), draw.at("/bandwidthMbps/mean").asDouble());
    assertEquals("paper", draw.get("links").asText());
    assertEquals(seed, draw.get("seed").asLong());
    assertEquals(clients, draw.get("clients").asInt());
  }

  /** The GA's selection as JSON, without the timings. */
  private static JsonNode selection(MainTest.Run r) throws IOException {
    assertEquals(0, r.code(), r.err());
    JsonNode root = JSON.readTree(r.out());
    root.get("joins").forEach(j -> ((ObjectNode) j).remove("timeMs"));
    return root;
  }

  @Test
  void defaultKeepsTheDescriptorsLinksAndOverridesReachTheFile() throws IOException {
    Path file = dir.resolve("d.json");
    MainTest.Run r =
        run("topology", "with-clients", "compuserve", "-c", "2", "-o", file.toString());
    assertEquals(0, r.code(), r.err());
    Topology t = TopologyLoader.load(file);
    Topology nominal = TopologyLoader.load("compuserve");
    for (int l = 0; l < t.links().size(); l++) {
      assertEquals(nominal.links().get(l).capacityMbps(), t.links().get(l).capacityMbps());
      assertEquals(nominal.links().get(l).delayMs(), t.links().get(l).delayMs());
    }
    assertEquals("descriptor", t.descriptor().draw().links());

    r =
        run(
            "topology",
            "with-clients",
            "compuserve",
            "-c",
            "3",
            "--links",
            "AUTO",
            "--bandwidth-mean",
            "3.5",
            "--bandwidth-std",
            "0",
            "--access-capacity",
            "8",
            "-o",
            file.toString());
    assertEquals(0, r.code(), r.err());
    t = TopologyLoader.load(file);
    t.links().forEach(l -> assertEquals(3.5, l.capacityMbps()));
    t.clients().forEach(h -> h.interfaces().forEach(f -> assertEquals(8.0, f.capacityMbps())));
    var draw = t.descriptor().draw();
    assertEquals(3.5, draw.bandwidthMbps().mean());
    assertEquals(0.0, draw.bandwidthMbps().std());
    assertEquals(8.0, draw.accessCapacityMbps());
    assertEquals(0, run("topology", "validate", file.toString()).code());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "mean 0|compuserve --links paper --bandwidth-mean 0|mpqoe: the bandwidth mean must be a positive number of Mbit/s, got 0.0",
        "mean NaN|compuserve --links paper --bandwidth-mean NaN|mpqoe: the bandwidth mean must be a positive number of Mbit/s, got NaN",
        "negative std|compuserve --links paper --bandwidth-std -1|mpqoe: the bandwidth standard deviation must be a number of Mbit/s >= 0, got -1.0",
        "access 0|compuserve --access-capacity 0|mpqoe: the access capacity must be a positive number of Mbit/s, got 0.0",
        "mean not a number|compuserve --bandwidth-mean fast|mpqoe: Invalid value for option '--bandwidth-mean'",
        "moments, nominal links|compuserve --bandwidth-mean 3|mpqoe: a bandwidth mean or std needs drawn links",
        "moments, no link model|qomra-dc --links auto --bandwidth-std 1|mpqoe: a bandwidth mean or std needs drawn links",
        "paper, no link model|qomra-dc --links paper|mpqoe: qomra-dc has no link model of the paper",
        "unknown link source|compuserve --links drawn|mpqoe: Invalid value for option '--links'",
        "more than listed|qomra-dc -c 9|mpqoe: qomra-dc lists 8 clients; 9 requested",
        "more than generated|compuserve -c 245|mpqoe: at most 244 generated clients",
        "no clients|compuserve -c 0|mpqoe: the number of clients must be at least 1",
        "access on listed clients|qomra-dc --access-capacity 5|mpqoe: qomra-dc lists its clients; an access capacity applies to generated clients only",
        "unknown topology|nowhere|mpqoe: unknown topology 'nowhere'",
        "unknown attachment|compuserve --attach nowhere|mpqoe: compuserve has no attachment 'nowhere' (known: framework)",
        "attachment and groups|compuserve --attach framework --interface-switches Dallas;Dallas;Dallas|mpqoe: --attach excludes --interface-switches and --server-switches",
        "attachment, two interfaces|compuserve --attach framework -n 2|mpqoe: interface switches: 3 group(s) for 2 interfaces",
        "server switches, too few|custom12 --server-switches s1;s2|mpqoe: server switches: 2 switch(es) for 3 server interfaces",
        "server switches, unknown|custom12 --server-switches s1;s2;s99|mpqoe: server switches: custom12 has no switch 's99'",
        "server switches, a group|custom12 --server-switches s1,s2;s3;s4|mpqoe: server switches: want one switch name per server interface",
        "server switches, two servers|qomra-dc --server-switches s1|mpqoe: server switches: qomra-dc has",
      })
  void badInputIsOneLineExitTwoAndWritesNothing(String why, String args, String message)
      throws IOException {
    Path file = dir.resolve("keep.json");
    Files.writeString(file, "before");
    Path fresh = dir.resolve("fresh.json");
    for (Path out : new Path[] {file, fresh}) {
      String[] argv = ("topology with-clients " + args + " -o " + out).split(" ");
      MainTest.Run r = run(argv);
      assertEquals(2, r.code(), why);
      assertTrue(r.err().startsWith(message), why + ": " + r.err());
      assertEquals(1, r.err().strip().lines().count(), why + ": " + r.err());
      assertEquals("", r.out(), why);
    }
    assertEquals("before", Files.readString(file), why);
    assertFalse(Files.exists(fresh), why);
    try (var left = Files.list(dir)) {
      assertEquals(1, left.count(), "no temporary file left: " + why);
    }
  }

  @Test
  void theFrameworkAttachmentPutsClientsAndServerOnItsSwitches() throws IOException {
    Path file = dir.resolve("fw.json");
    MainTest.Run w =
        run(
            "topology",
            "with-clients",
            "compuserve",
            "-c",
            "3",
            "--links",
            "paper",
            "--attach",
            "framework",
            "-o",
            file.toString());
    assertEquals(0, w.code(), w.err());
    Topology t = TopologyLoader.load(file);
    var clients = java.util.List.of("Seattle", "San Francisco", "Los Angeles");
    var server = java.util.List.of("Houston", "Washington DC", "Boston");
    for (var h : t.clients()) {
      assertEquals(
          clients, h.interfaces().stream().map(f -> f.attachment().name()).toList(), h.name());
    }
    var s = t.servers().get(0);
    assertEquals(server, s.interfaces().stream().map(f -> f.attachment().name()).toList());
    assertEquals("10.0.1.1", s.interfaces().get(0).ip(), "the first address sits on Houston");
    JsonNode draw = JSON.readTree(file.toFile()).get("draw");
    assertEquals("framework", draw.get("attach").asText());
    assertEquals("Houston", draw.at("/serverSwitches/0").asText());
    // --server-switches and --interface-switches spelled out give the same file.
    Path spelled = dir.resolve("spelled.json");
    String[] argv = {
      "topology",
      "with-clients",
      "compuserve",
      "-c",
      "3",
      "--links",
      "paper",
      "--interface-switches",
      String.join(";", clients),
      "--server-switches",
      String.join(";", server),
      "-o",
      spelled.toString()
    };
    assertEquals(0, run(argv).code());
    ObjectNode a = (ObjectNode) JSON.readTree(file.toFile());
    ObjectNode b = (ObjectNode) JSON.readTree(spelled.toFile());
    ((ObjectNode) a.get("draw")).remove("attach");
    assertEquals(a, b);
  }

  @Test
  void matchPrintsBothMappingsOfTheFrameworkNetworkOntoCompuserve() throws IOException {
    MainTest.Run r =
        run("topology", "match", "../../topologies/framework/compuserve.json", "compuserve");
    assertEquals(0, r.code(), r.err());
    JsonNode doc = JSON.readTree(r.out());
    assertEquals("framework-compuserve", doc.get("from").asText());
    assertEquals(2, doc.get("mappings").size());
    assertEquals("Houston", doc.at("/mappings/0/s5").asText());
    assertEquals("Boston", doc.at("/mappings/1/s5").asText());
    MainTest.Run none = run("topology", "match", "compuserve", "custom12");
    assertEquals(0, none.code(), none.err());
    assertEquals(0, JSON.readTree(none.out()).get("mappings").size());
    MainTest.Run bad = run("topology", "match", "compuserve", "nowhere");
    assertEquals(2, bad.code());
    assertTrue(bad.err().startsWith("mpqoe: unknown topology 'nowhere'"), bad.err());
  }

  @Test
  void wiringPrintsTheAttachmentsAndTheRule() throws IOException {
    MainTest.Run r = run("topology", "wiring", "custom12");
    assertEquals(0, r.code(), r.err());
    JsonNode doc = JSON.readTree(r.out());
    assertEquals(doc.at("/attachments/framework/server"), doc.at("/rule/server"));
    assertEquals("s12", doc.at("/rule/server/0").asText());
  }
}

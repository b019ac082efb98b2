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
}

package org.mpqoe.core.topology;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * The on-disk form of a topology descriptor (schema in {@code topologies/README.md}). It is only
 * read and written; {@link TopologyLoader} validates it into a {@link Topology}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
  "schema",
  "name",
  "description",
  "approximation",
  "switches",
  "links",
  "hosts",
  "clientSwitches",
  "generator",
  "scenario",
  "draw"
})
public record Descriptor(
    Integer schema,
    String name,
    String description,
    Boolean approximation,
    List<SwitchJson> switches,
    List<LinkJson> links,
    List<HostJson> hosts,
    List<String> clientSwitches,
    GeneratorJson generator,
    ScenarioJson scenario,
    DrawJson draw) {

  /** A switch entry. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SwitchJson(String name, Long dpid) {}

  /** A switch-to-switch link entry. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"a", "b", "capacityMbps", "delayMs", "lossPct"})
  public record LinkJson(String a, String b, Double capacityMbps, Double delayMs, Double lossPct) {}

  /** A host entry. */
  public record HostJson(String name, String role, List<InterfaceJson> interfaces) {}

  /** A host interface entry with its optional access-link properties. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"ip", "mac", "switch", "capacityMbps", "delayMs", "lossPct"})
  public record InterfaceJson(
      String ip,
      String mac,
      @com.fasterxml.jackson.annotation.JsonProperty("switch") String switchName,
      Double capacityMbps,
      Double delayMs,
      Double lossPct) {}

  /** How a generated topology was made, so that it can be made again. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record GeneratorJson(String kind, Long seed, Integer switches, Integer degree) {}

  /** The GA paper's set-up for this topology: link model and GA population size. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"delayMs", "bandwidthMbps", "gaPopulation"})
  public record ScenarioJson(
      RangeJson delayMs, Map<String, MomentsJson> bandwidthMbps, Integer gaPopulation) {}

  /**
   * How a descriptor written by {@code mpqoe topology with-clients} was made: placement seed,
   * clients and interfaces each, where client and server interfaces attach (the named attachment
   * they come from, if any), where the link values come from ({@code "paper"}: drawn with {@code
   * bandwidthMbps} and {@code delayMs}, realised moments in {@code realisedMbps}; {@code
   * "descriptor"}: the nominal values), and the capacity given to generated client interfaces.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({
    "seed",
    "clients",
    "interfaces",
    "links",
    "bandwidthMbps",
    "delayMs",
    "realisedMbps",
    "accessCapacityMbps",
    "interfaceSwitches",
    "serverSwitches",
    "attach"
  })
  public record DrawJson(
      Long seed,
      Integer clients,
      Integer interfaces,
      String links,
      MomentsJson bandwidthMbps,
      RangeJson delayMs,
      MomentsJson realisedMbps,
      Double accessCapacityMbps,
      List<List<String>> interfaceSwitches,
      List<String> serverSwitches,
      String attach) {}

  /** A closed range. */
  public record RangeJson(Double min, Double max) {}

  /** Mean and standard deviation. */
  public record MomentsJson(Double mean, Double std) {}
}

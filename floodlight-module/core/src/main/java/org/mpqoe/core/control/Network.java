package org.mpqoe.core.control;

import org.mpqoe.core.path.CandidatePaths;
import org.mpqoe.core.topology.Topology;

/**
 * Everything the control plane derives from one topology, built together and replaced together when
 * the topology changes at run time ({@link MptcpControlPlane#replaceTopology}). A packet-in reads
 * it once at its start and works on that one state to the end; all of it is indexed by the same
 * switch and link indices, so that nothing mixes two topologies.
 *
 * @param topology switches, links and hosts
 * @param hosts which interface owns an address
 * @param paths candidate paths (its cache belongs to this topology) and links marked down
 * @param segmentRouting labels, derived from switch and link indices
 * @param subflowRules the rules of a subflow over a path of this topology
 */
record Network(
    Topology topology,
    HostDirectory hosts,
    CandidatePaths paths,
    SegmentRouting segmentRouting,
    SubflowRules subflowRules) {

  static Network of(Topology topology, int maxHops) {
    SegmentRouting sr = new SegmentRouting(topology);
    return new Network(
        topology,
        new HostDirectory(topology),
        new CandidatePaths(topology, maxHops),
        sr,
        new SubflowRules(topology, sr));
  }
}

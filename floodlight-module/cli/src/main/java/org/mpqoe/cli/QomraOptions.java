package org.mpqoe.cli;

import java.util.List;
import org.mpqoe.core.control.SegmentRouting;
import org.mpqoe.core.select.QomraConfig;
import org.mpqoe.core.select.QomraSelector;
import org.mpqoe.core.select.Resolution;
import org.mpqoe.core.topology.Topology;
import picocli.CommandLine.Option;

/** QoMRA's options, shared by select, compare and controller. */
final class QomraOptions {
  @Option(
      names = "--qomra-k",
      defaultValue = "3",
      paramLabel = "K",
      description = "QoMRA: shortest paths per flow and per demand (default: ${DEFAULT-VALUE}).")
  int k;

  @Option(
      names = "--qomra-interval",
      defaultValue = "10",
      paramLabel = "SECONDS",
      description =
          "QoMRA: link criticality is recomputed every interval t (default: ${DEFAULT-VALUE}).")
  double intervalS;

  @Option(
      names = "--resolution",
      defaultValue = "480p",
      description =
          "QoMRA: requested resolution, sets b_r: 1080p 5, 720p 2.5, 480p 1.0, 360p 0.725,"
              + " 240p 0.325 Mbit/s per subflow (default: ${DEFAULT-VALUE}).")
  String resolution;

  @Option(
      names = "--qomra-weights",
      defaultValue = "1,1,1,1",
      split = ",",
      paramLabel = "D,L,C,G",
      description =
          "QoMRA: weights of delay, loss, criticality and congestion index in the link cost"
              + " (default: ${DEFAULT-VALUE}).")
  List<Double> weights;

  QomraConfig config() {
    if (weights.size() != 4) {
      throw new IllegalArgumentException(
          "--qomra-weights needs 4 numbers (delay,loss,criticality,congestion), got "
              + weights.size());
    }
    return new QomraConfig(
        k,
        intervalS,
        Resolution.parse(resolution),
        weights.get(0),
        weights.get(1),
        weights.get(2),
        weights.get(3));
  }

  /** Fresh QoMRA books with the topology's loss and segment-routing labels. */
  static QomraSelector.Context context(Topology t) {
    return QomraSelector.Context.of(t, new SegmentRouting(t)::labels);
  }
}

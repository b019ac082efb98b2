package net.floodlightcontroller.statistics;

import java.util.Map;
import net.floodlightcontroller.core.module.IFloodlightService;
import net.floodlightcontroller.core.types.NodePortTuple;

/** The statistics collector: port rates from periodic port-statistics polls. */
public interface IStatisticsService extends IFloodlightService {
  /** The port polling period in seconds; Floodlight answers with a message. */
  String setPortStatsPeriod(int period);

  Map<NodePortTuple, SwitchPortBandwidth> getBandwidthConsumption();

  void collectStatistics(boolean collect);
}

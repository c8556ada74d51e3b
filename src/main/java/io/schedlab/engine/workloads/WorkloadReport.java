package io.schedlab.engine.workloads;

import java.util.Map;

/**
 * A workload's result: its headline metric and unit (e.g. 96.2 "s" elapsed, 5120 "MB/s",
 * 18000 "records/s"), whether higher is better, completion time when finite and done, and
 * named details (e.g. per-thread figures, wake-up latency percentiles).
 */
public record WorkloadReport(String metric, double value, String unit, boolean higherIsBetter,
        Double completionSeconds, Map<String, Double> details) {
}

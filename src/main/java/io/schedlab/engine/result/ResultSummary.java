package io.schedlab.engine.result;

import java.util.Map;

/**
 * The headline of a result, small enough for list views and summary columns: simulated and wall
 * time, events, switches, migrations, weighted Jain fairness over VMs, and each VM's headline
 * workload figure (value in the workload's unit, keyed by VM name).
 */
public record ResultSummary(double simulatedSeconds, double wallSeconds, long events, long contextSwitches,
        long migrations, double jainFairness, Map<String, Double> vmHeadline) {
}

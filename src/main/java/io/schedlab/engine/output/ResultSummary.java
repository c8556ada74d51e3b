package io.schedlab.engine.output;

import java.util.Map;

/**
 * The headline of a result, small enough for list views and summary columns. Names and units are
 * those of {@link RunTotals} and {@link Fairness}.
 *
 * @param simulatedNanos simulated time at the end of the run
 * @param wallNanos wall-clock time the simulation took (the document's one non-deterministic field)
 * @param events discrete events processed
 * @param contextSwitches switches with prev != next
 * @param migrations vCPU migrations, all distances
 * @param jainIndex {@link Fairness#jainIndex()}
 * @param vmHeadline each VM's headline figure in its workload's unit, keyed by VM name, creation order
 */
public record ResultSummary(long simulatedNanos, long wallNanos, long events, long contextSwitches,
        long migrations, Double jainIndex, Map<String, Headline> vmHeadline) {
}

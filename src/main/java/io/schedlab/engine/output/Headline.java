package io.schedlab.engine.output;

/**
 * A VM's headline figure in its workload's own unit (e.g. 96.0 "s" completion time, 5120 "MB/s").
 *
 * @param value the figure, in {@code unit}
 * @param unit the workload's unit ("s", "MB/s", "records/s", "bursts/s", "us", "work-seconds/s")
 * @param meaning what the figure measures and which direction is better
 * @param higherIsBetter true for rates, false for times and latencies
 */
public record Headline(double value, String unit, String meaning, boolean higherIsBetter) {
}

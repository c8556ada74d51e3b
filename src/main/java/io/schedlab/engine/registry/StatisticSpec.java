package io.schedlab.engine.registry;

/**
 * One per-policy statistic in the result document ({@code policyStatistics}): its name, unit, meaning, and
 * whether it is also reported per vCPU ({@code vcpus[].policyStatistics}).
 */
public record StatisticSpec(String name, String unit, String description, boolean perVcpu) {

    /** A run-level statistic only. */
    public static StatisticSpec run(String name, String unit, String description) {
        return new StatisticSpec(name, unit, description, false);
    }

    /** A statistic reported for the run (the sum) and per vCPU. */
    public static StatisticSpec runAndVcpu(String name, String unit, String description) {
        return new StatisticSpec(name, unit, description, true);
    }
}

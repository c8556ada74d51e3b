package io.schedlab.engine.spec;

import java.util.List;
import java.util.Map;

/**
 * An experiment as a user submits it: host, scheduler, VMs with workloads, a timeline of
 * actions, and run settings. Fields are nullable in raw input; {@code SpecNormalizer} returns
 * a copy with every default filled in. Times are in seconds (doubles) at the API edge and
 * converted to nanoseconds inside the engine.
 */
public record ExperimentSpec(
        String name,
        Map<String, String> labels,
        Long seed,
        Double durationSeconds,
        StopCondition stopWhen,
        HostSpec host,
        SchedulerSpec scheduler,
        Map<String, Object> costs,
        List<VmSpec> vms,
        List<TimelineAction> timeline,
        TraceSpec trace) {

    /** When a run ends: at {@code durationSeconds}, or as soon as every finite workload has completed. */
    public enum StopCondition { DURATION, ALL_COMPLETE }
}

package io.schedlab.engine.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
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
    public enum StopCondition {
        DURATION, ALL_COMPLETE;

        /** JSON form: lower-case kebab ({@code "all-complete"}). */
        @JsonValue
        public String json() {
            return SpecEnums.toJson(this);
        }

        /** Accepts {@code "all-complete"}, {@code "ALL_COMPLETE"} and other case/dash variants. */
        @JsonCreator
        public static StopCondition fromJson(String value) {
            return SpecEnums.fromJson(StopCondition.class, value);
        }
    }
}

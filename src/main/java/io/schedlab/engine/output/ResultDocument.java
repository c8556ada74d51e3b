package io.schedlab.engine.output;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * The full result of a run, serialized to JSON as is (records all the way down, fields in a fixed
 * order). Every duration and instant is an integer number of nanoseconds named {@code *Nanos};
 * "not applicable" is null. The only non-deterministic field is {@code summary.wallNanos};
 * {@link #withoutWallTime()} blanks it for comparisons.
 *
 * @param engineVersion {@code Engine.VERSION} of the engine that produced it
 * @param experiment the experiment's name
 * @param policy the scheduler policy name
 * @param policyParams the policy's normalized parameters
 * @param seed the experiment seed
 * @param stopReason {@link #STOP_DURATION}, {@link #STOP_ALL_COMPLETE}, {@link #STOP_STOPPED} or {@link #STOP_EVENT_LIMIT}
 * @param partial true when the run was stopped before its end (cancelled, timed out, event limit)
 * @param summary the headline figures
 * @param totals global counters
 * @param fairness Jain's index over the competing VMs
 * @param distributions HdrHistogram distributions of the scheduler costs and latencies
 * @param vms per VM (and per vCPU) figures, in creation order
 * @param pcpus per pCPU time split
 * @param runqueues per run queue length and fairness
 * @param policyStatistics the policy's own counters, name -> value, sorted by name (each documented in its
 *     descriptor, {@code /api/v1/schedulers}); absent when the policy declares none
 * @param hypervisorStatistics KVM's run-level counters (name -> number, sorted by name: PLE exits,
 *        kvm_vcpu_on_spin calls, directed yields, handler time in ns); under Xen only {@code pleExits} of HVM
 *        guests ({@code schedParams.pleWindowNanos} > 0), absent when no guest exited
 * @param coreScheduling core-scheduling figures (schedGran core|socket), null at cpu granularity
 */
public record ResultDocument(
        String engineVersion,
        String experiment,
        String policy,
        Map<String, Object> policyParams,
        long seed,
        String stopReason,
        boolean partial,
        ResultSummary summary,
        RunTotals totals,
        Fairness fairness,
        Distributions distributions,
        List<VmResult> vms,
        List<PcpuResult> pcpus,
        List<RunqueueResult> runqueues,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> policyStatistics,
        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Long> hypervisorStatistics,
        CoreSchedulingResult coreScheduling) {

    /** The run reached its {@code durationSeconds}. */
    public static final String STOP_DURATION = "duration";
    /** Every finite workload completed ({@code stopWhen: all-complete}). */
    public static final String STOP_ALL_COMPLETE = "all-complete";
    /** The caller stopped the run (cancel or wall-clock timeout): a partial result. */
    public static final String STOP_STOPPED = "stopped";
    /** The run hit its bound on simulated events: a partial result. */
    public static final String STOP_EVENT_LIMIT = "event-limit";

    /** A headline-only document (for callers and tests that only need the summary). */
    public ResultDocument(String engineVersion, ResultSummary summary) {
        this(engineVersion, null, null, Map.of(), 0L, null, false, summary, null, null, null, List.of(), List.of(),
                List.of(), Map.of(), null, null);
    }

    /** The same document with the wall-clock time set to 0, for determinism comparisons. */
    public ResultDocument withoutWallTime() {
        ResultSummary s = summary;
        ResultSummary blank = s == null ? null
                : new ResultSummary(s.simulatedNanos(), 0L, s.events(), s.contextSwitches(), s.migrations(),
                        s.jainIndex(), s.vmHeadline());
        return new ResultDocument(engineVersion, experiment, policy, policyParams, seed, stopReason, partial, blank,
                totals, fairness, distributions, vms, pcpus, runqueues,
                policyStatistics, hypervisorStatistics, coreScheduling);
    }
}

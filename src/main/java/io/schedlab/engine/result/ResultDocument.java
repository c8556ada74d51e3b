package io.schedlab.engine.result;

import java.util.List;
import java.util.Map;

/**
 * The full result of a run, serialized to JSON as is (records all the way down, fields in a fixed
 * order). Times are in seconds (doubles), latencies in nanoseconds. The only non-deterministic
 * field is {@code summary.wallSeconds}; {@link #withoutWallTime()} blanks it for comparisons.
 *
 * @param engineVersion {@code Engine.VERSION} of the engine that produced it
 * @param experiment the experiment's name
 * @param policy the scheduler policy name
 * @param policyParams the policy's normalized parameters
 * @param seed the experiment seed
 * @param stopReason {@code duration} or {@code all-complete}
 * @param summary the headline figures
 * @param totals global counters
 * @param distributions HdrHistogram distributions of the scheduler costs and latencies
 * @param vms per VM (and per vCPU) figures, in creation order
 * @param pcpus per pCPU time split
 * @param runqueues per run queue time-averaged length
 * @param coreScheduling core-scheduling figures (schedGran core|socket), null at cpu granularity
 */
public record ResultDocument(
        String engineVersion,
        String experiment,
        String policy,
        Map<String, Object> policyParams,
        long seed,
        String stopReason,
        ResultSummary summary,
        RunTotals totals,
        Distributions distributions,
        List<VmResult> vms,
        List<PcpuResult> pcpus,
        List<RunqueueResult> runqueues,
        CoreSchedulingResult coreScheduling) {

    /** A headline-only document (for callers and tests that only need the summary). */
    public ResultDocument(String engineVersion, ResultSummary summary) {
        this(engineVersion, null, null, Map.of(), 0L, null, summary, null, null, List.of(), List.of(), List.of(), null);
    }

    /** The same document with the wall-clock time set to 0, for determinism comparisons. */
    public ResultDocument withoutWallTime() {
        ResultSummary s = summary;
        ResultSummary blank = s == null ? null
                : new ResultSummary(s.simulatedSeconds(), 0.0, s.events(), s.contextSwitches(), s.migrations(),
                        s.jainFairness(), s.vmHeadline());
        return new ResultDocument(engineVersion, experiment, policy, policyParams, seed, stopReason, blank, totals,
                distributions, vms, pcpus, runqueues, coreScheduling);
    }
}

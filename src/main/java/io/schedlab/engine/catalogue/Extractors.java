package io.schedlab.engine.catalogue;

import io.schedlab.engine.sweepgrid.ComputedMetric;
import io.schedlab.engine.sweepgrid.SweepDefinition.Direction;
import io.schedlab.engine.sweepgrid.SweepDefinition.Metric;
import java.util.List;

/**
 * The metrics scenario cells read from a result document, as sweep metrics (a JSON pointer, a
 * mean over pointers, or a computed figure; named; times and counts of overhead are lower-is-
 * better, a headline's direction is the table's). Every path into
 * the document is here, in one place, so a change of the document's shape is one edit.
 */
final class Extractors {
    private Extractors() {
    }

    /** The VM's headline figure in its workload's unit (summary.vmHeadline.NAME.value). */
    static Metric vmHeadline(String vm) {
        return at(headlinePointer(vm), 1);
    }

    /** Mean of the VMs' headline figures (missing if any is). */
    static Metric meanHeadline(List<String> vms) {
        return new Metric("meanHeadline", null, null, vms.stream().map(Extractors::headlinePointer).toList(), null, null);
    }

    /**
     * A statistic ("p50", "p90", "p99", "p99.9", "max") of a run-wide distribution ("decision",
     * "contextSwitch", "contextSaved", "wakeLatency", "runqueueWait"; ResultDocument.distributions, in ns),
     * scaled (1e-3: ns to us).
     */
    static Metric distribution(String name, String stat, double scale) {
        String field = switch (stat) {
            case "p50" -> "p50Nanos";
            case "p90" -> "p90Nanos";
            case "p99" -> "p99Nanos";
            case "p99.9" -> "p999Nanos";
            case "max" -> "maxNanos";
            default -> throw new IllegalArgumentException("unknown statistic " + stat);
        };
        return at("/distributions/" + escape(name) + "/" + field, scale, Direction.LOWER);
    }

    /** Migrations of the whole run by kind ("total", "sameCore", "sameSocket", "crossSocket"). */
    static Metric migrations(String kind) {
        return at("/totals/migrations/" + escape(kind), 1, Direction.LOWER);
    }

    /** Scheduler overhead (decision + switch + context_saved) as a percentage of all pCPU time. */
    static Metric overheadPercent() {
        return new Metric(ComputedMetric.OVERHEAD_PERCENT.jsonName(), null, Direction.LOWER, null,
                ComputedMetric.OVERHEAD_PERCENT.jsonName(), null);
    }

    /** A number at a JSON pointer, scaled (e.g. 1e-3 for ns to us; 1 = as it is). */
    static Metric at(String pointer, double scale) {
        return at(pointer, scale, null);
    }

    /** The same with its direction (null: the table's). */
    private static Metric at(String pointer, double scale, Direction better) {
        return new Metric(ScenarioSweep.metricName(pointer, scale), pointer, better, null, null, scale == 1 ? null : scale);
    }

    private static String headlinePointer(String vm) {
        return "/summary/vmHeadline/" + escape(vm) + "/value";
    }

    /** Mean wake-up latency of the guest threads of the VM at {@code vmIndex} in the spec's order, scaled (1e-3: us). */
    static Metric vmMeanWakeLatency(int vmIndex, double scale) {
        return at("/vms/" + vmIndex + "/wakeLatency/meanNanos", scale, Direction.LOWER);
    }

    /** Mean over the VM's first {@code vcpus} vCPUs of one per-vCPU policy statistic (vcpus[].policyStatistics). */
    static Metric vcpuStatisticMean(int vmIndex, int vcpus, String statistic) {
        List<String> pointers = java.util.stream.IntStream.range(0, vcpus)
                .mapToObj(i -> "/vms/" + vmIndex + "/vcpus/" + i + "/policyStatistics/" + escape(statistic)).toList();
        return new Metric(statistic + ".meanPerVcpu.vm" + vmIndex, null, null, pointers, null, null);
    }

    /** RFC 6901 escaping of one reference token. */
    static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}

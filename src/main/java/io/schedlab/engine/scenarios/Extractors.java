package io.schedlab.engine.scenarios;

import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * Reads scenario cells from a result document's JSON tree. Every path into the document is here, in
 * one place, so a change of the document's shape is one edit.
 */
final class Extractors {
    private Extractors() {
    }

    /** The VM's headline figure in its workload's unit (summary.vmHeadline). */
    static Function<JsonNode, Double> vmHeadline(String vm) {
        return new PointerExtractor("/summary/vmHeadline/" + escape(vm), 1);
    }

    /** Mean of the VMs' headline figures (null if any is missing). */
    static Function<JsonNode, Double> meanHeadline(List<String> vms) {
        return doc -> {
            double sum = 0;
            for (String vm : vms) {
                Double v = vmHeadline(vm).apply(doc);
                if (v == null) {
                    return null;
                }
                sum += v;
            }
            return vms.isEmpty() ? null : sum / vms.size();
        };
    }

    /**
     * A statistic ("p50", "p90", "p99", "p99.9", "max") of a run-wide distribution ("decision",
     * "contextSwitch", "contextSaved", "wakeLatency", "runqueueWait"; ResultDocument.distributions, in ns),
     * scaled (1e-3: ns to us).
     */
    static Function<JsonNode, Double> distribution(String name, String stat, double scale) {
        String field = switch (stat) {
            case "p50" -> "p50Nanos";
            case "p90" -> "p90Nanos";
            case "p99" -> "p99Nanos";
            case "p99.9" -> "p999Nanos";
            case "max" -> "maxNanos";
            default -> throw new IllegalArgumentException("unknown statistic " + stat);
        };
        return at("/distributions/" + escape(name) + "/" + field, scale);
    }

    /** Migrations of the whole run by kind ("total", "sameCore", "sameSocket", "crossSocket"). */
    static Function<JsonNode, Double> migrations(String kind) {
        return at("/totals/migrations/" + escape(kind), 1);
    }

    /** Scheduler overhead (decision + switch + context_saved) as a percentage of all pCPU time. */
    static Function<JsonNode, Double> overheadPercent() {
        return doc -> {
            JsonNode pcpus = doc.at("/pcpus");
            if (!pcpus.isArray() || pcpus.isEmpty()) {
                return null;
            }
            double overhead = 0;
            double total = 0;
            for (JsonNode p : pcpus) {
                overhead += p.path("overheadSeconds").doubleValue();
                total += p.path("busySeconds").doubleValue() + p.path("idleSeconds").doubleValue()
                        + p.path("overheadSeconds").doubleValue();
            }
            return total > 0 ? 100 * overhead / total : null;
        };
    }

    /** A number at a JSON pointer, scaled (e.g. 1e-3 for ns to us). */
    static Function<JsonNode, Double> at(String pointer, double scale) {
        return new PointerExtractor(pointer, scale);
    }

    static Double number(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull() || !node.isNumber() ? null : node.doubleValue();
    }

    /** RFC 6901 escaping of one reference token. */
    static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}

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
        return doc -> number(doc.at("/summary/vmHeadline/" + escape(vm)));
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

    /** A statistic ("p50", "p90", "p99", "p99.9", "max") of a result distribution, scaled (1e-3: ns to us). */
    static Function<JsonNode, Double> distribution(String name, String stat, double scale) {
        return at("/distributions/" + escape(name) + "/" + escape(stat), scale);
    }

    /** A number at a JSON pointer, scaled (e.g. 1e-3 for ns to us). */
    static Function<JsonNode, Double> at(String pointer, double scale) {
        return doc -> {
            Double v = number(doc.at(pointer));
            return v == null ? null : v * scale;
        };
    }

    static Double number(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull() || !node.isNumber() ? null : node.doubleValue();
    }

    /** RFC 6901 escaping of one reference token. */
    static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}

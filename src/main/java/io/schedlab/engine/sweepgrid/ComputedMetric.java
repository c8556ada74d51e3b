package io.schedlab.engine.sweepgrid;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * Figures of a result document that no single JSON pointer holds, by the name a metric's
 * {@code computed} gives: the same computation wherever a sweep is aggregated.
 */
public enum ComputedMetric implements Function<JsonNode, Double> {

    /** Scheduler overhead (decision + switch + context_saved) as a percentage of all pCPU time (busy + idle + overhead). */
    OVERHEAD_PERCENT("overheadPercent") {
        @Override
        public Double apply(JsonNode doc) {
            JsonNode pcpus = doc.at("/pcpus");
            if (!pcpus.isArray() || pcpus.isEmpty()) {
                return null;
            }
            double overhead = 0;
            double total = 0;
            for (JsonNode p : pcpus) {
                overhead += p.path("overheadNanos").doubleValue();
                total += p.path("busyNanos").doubleValue() + p.path("idleNanos").doubleValue()
                        + p.path("overheadNanos").doubleValue();
            }
            return total > 0 ? 100 * overhead / total : null;
        }
    };

    private final String jsonName;

    ComputedMetric(String jsonName) {
        this.jsonName = jsonName;
    }

    /** The name a metric's {@code computed} member gives. */
    public String jsonName() {
        return jsonName;
    }

    public static Optional<ComputedMetric> byName(String name) {
        return Arrays.stream(values()).filter(c -> c.jsonName.equals(name)).findFirst();
    }
}

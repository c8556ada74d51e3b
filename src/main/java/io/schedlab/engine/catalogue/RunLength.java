package io.schedlab.engine.catalogue;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A scenario at a multiple of its run length, for the convergence check of the scorecard: a cell
 * whose effect at its size and at 3x its length differ by more than the seeds' spread has not
 * converged. Everything that sets how long a run lasts is scaled: the duration (the stop time, or
 * the limit of a run to completion), the times of timeline actions and VM starts, and each finite
 * workload's amount of work (a build's jobs and link, a loop's seconds, a benchmark's records,
 * responses or megabytes; endless workloads, 0, stay endless). Rates, sizes and policies stay.
 */
final class RunLength {

    /** Workload parameters that are an amount of work, by workload type (scaled when not 0 = endless). */
    static final Map<String, List<String>> WORK = Map.of(
            "parallel-build", List.of("jobs", "serialTailMs"),
            "cpu-loop", List.of("workSeconds"),
            "spinlock", List.of("records"),
            "hackbench", List.of("loops"),
            "interactive", List.of("wakeups"),
            "request-response", List.of("transactions"),
            "memory-bandwidth", List.of("totalMb"));

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RunLength() {
    }

    /** The scenario with every run {@code factor} times as long (same tables, seeds and repeats). */
    static Scenario scaled(Scenario s, int factor, Registry registry) {
        List<ScenarioTable> tables = new ArrayList<>();
        for (ScenarioTable t : s.tables()) {
            List<ScenarioRun> runs = t.runs().stream().map(r -> new ScenarioRun(r.label(),
                    scaled(r.spec(), factor, registry), r.repeats(), r.measures(), r.note())).toList();
            tables.add(t.withRuns(runs));
        }
        return new Scenario(s.id(), s.title(), s.setup(), s.expectedShape(), tables);
    }

    /** One experiment {@code factor} times as long. */
    static ExperimentSpec scaled(ExperimentSpec spec, int factor, Registry registry) {
        ObjectNode doc = JSON.valueToTree(spec);
        times(doc, "durationSeconds", factor);
        doc.path("timeline").forEach(a -> times((ObjectNode) a, "atSeconds", factor));
        for (JsonNode vm : doc.path("vms")) {
            times((ObjectNode) vm, "startAtSeconds", factor);
            JsonNode workload = vm.path("workload");
            if (workload.isObject()) {
                scaleWork((ObjectNode) workload, factor, registry);
            }
        }
        return JSON.treeToValue(doc, ExperimentSpec.class);
    }

    private static void scaleWork(ObjectNode workload, int factor, Registry registry) {
        String type = workload.path("type").asString("");
        List<String> names = WORK.getOrDefault(type, List.of());
        if (names.isEmpty()) {
            return;
        }
        ObjectNode params = workload.path("params").isObject() ? (ObjectNode) workload.path("params")
                : workload.putObject("params");
        WorkloadDescriptor d = registry.workload(type).orElse(null);
        for (String name : names) {
            double value = params.has(name) ? params.get(name).asDouble() : defaultOf(d, name);
            if (value == 0) {
                continue; // endless: the duration bounds it
            }
            boolean integral = d != null && d.parameters().stream()
                    .anyMatch(p -> p.name().equals(name) && p.type() == ParameterSpec.Type.INTEGER);
            if (integral) {
                params.put(name, Math.round(value * factor));
            } else {
                params.put(name, value * factor);
            }
        }
    }

    private static double defaultOf(WorkloadDescriptor d, String name) {
        if (d == null) {
            return 0;
        }
        return d.parameters().stream().filter(p -> p.name().equals(name)).findFirst()
                .map(p -> p.defaultValue() instanceof Number n ? n.doubleValue() : 0.0).orElse(0.0);
    }

    private static void times(ObjectNode node, String field, int factor) {
        JsonNode v = node.get(field);
        if (v != null && v.isNumber()) {
            node.put(field, v.asDouble() * factor);
        }
    }
}

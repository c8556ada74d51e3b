package io.schedlab.scenarios;

import io.schedlab.engine.scenarios.BuiltInScenarios;
import io.schedlab.engine.scenarios.Measure;
import io.schedlab.engine.scenarios.PointerExtractor;
import io.schedlab.engine.scenarios.Scenario;
import io.schedlab.engine.scenarios.ScenarioRun;
import io.schedlab.engine.scenarios.ScenarioTable;
import io.schedlab.experiments.ExperimentSpecReader;
import io.schedlab.sweeps.SweepDefinition;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Describes the built-in scenarios as sweeps: each table becomes one sweep whose single axis
 * {@code run} has a variant per run of the table (its whole experiment as a merge patch of an
 * empty base), whose metrics are the distinct JSON pointers its cells read, and whose
 * repetitions are the most any run of the table repeats. A cell read by a computed extractor
 * (a mean over VMs, an overhead share, the CLI's affinity audit) has no pointer: it is listed
 * with metric null and its published number; a table with no pointer at all tabulates each VM's
 * headline (the parts of its means).
 */
public final class ScenarioSweeps {

    private static final int MAX_NAME = 200;
    private static final String AUDIT = "/" + io.schedlab.engine.scenarios.ScenarioRunner.AUDIT_FIELD;
    private final ExperimentSpecReader reader = new ExperimentSpecReader();
    private final JsonMapper json = JsonMapper.builder().build();

    /** Every scenario in order, at full size. */
    public List<ScenarioView> all() {
        return BuiltInScenarios.all(false).stream().map(this::view).toList();
    }

    public Optional<ScenarioView> byName(String name) {
        return BuiltInScenarios.byId(name, false).map(this::view);
    }

    /** A scenario with its published numbers and its tables as sweep definitions. */
    @Schema(name = "Scenario", description = "A published experiment: source in the title, set-up, expected shape, its tables")
    public record ScenarioView(String name, String title, List<String> setup, String expectedShape,
            List<TableSweep> tables) {
    }

    /**
     * One table: caption, rows and columns as published, the sweep definition, and each cell's
     * place. A table the service cannot run has definition null and says why in {@code note}.
     */
    @Schema(name = "ScenarioTableSweep", description = "A published table, its cells with the published numbers and the sweep that fills it")
    public record TableSweep(String caption, String rowHeader, List<String> rows, List<String> columns,
            @Schema(description = "a sweep definition for POST /api/v1/sweeps (null when the service cannot run this table)",
                    implementation = SweepDefinition.class) Map<String, Object> definition,
            List<Cell> cells, @Schema(description = "why there is no definition, else null") String note) {
    }

    /**
     * A cell of the published table: which variant (run) and metric of the sweep fill it (metric
     * null when it has no JSON pointer), the scale from the metric's unit to the table's, the
     * published number (null when the source gives none) and the run's note.
     */
    @Schema(name = "ScenarioCell", description = "Where a published cell comes from: the sweep's variant and metric, and the published number")
    public record Cell(String row, String column, String variant, String metric, double scale, Double published,
            String note) {
    }

    private ScenarioView view(Scenario s) {
        List<TableSweep> tables = new ArrayList<>();
        for (int t = 0; t < s.tables().size(); t++) {
            tables.add(table(s, t, s.tables().get(t)));
        }
        return new ScenarioView(s.id(), s.title(), s.setup(), s.expectedShape(), tables);
    }

    private TableSweep table(Scenario s, int index, ScenarioTable table) {
        boolean audit = table.runs().stream().flatMap(r -> r.measures().stream())
                .anyMatch(m -> m.extract() instanceof PointerExtractor p && p.pointer().startsWith(AUDIT));
        Map<String, String> metricNames = new LinkedHashMap<>();
        List<Map<String, Object>> variants = new ArrayList<>();
        List<Cell> cells = new ArrayList<>();
        Set<String> labels = new LinkedHashSet<>();
        int repetitions = 1;
        for (ScenarioRun run : table.runs()) {
            String label = unique(run.label(), labels);
            ObjectNode patch = (ObjectNode) json.readTree(reader.write(run.spec()));
            patch.remove("seed"); // the sweep derives each repetition's seed
            variants.add(Map.of("name", label, "patch", patch));
            repetitions = Math.max(repetitions, run.repeats());
            for (Measure m : run.measures()) {
                String metric = null;
                double scale = 1;
                if (m.extract() instanceof PointerExtractor p) {
                    metric = metricNames.computeIfAbsent(p.pointer(), ptr -> metricName(ptr, metricNames.values()));
                    scale = p.scale();
                }
                cells.add(new Cell(m.row(), m.column(), label, metric, scale, m.published(), run.note()));
            }
        }
        if (metricNames.isEmpty()) {
            // every cell is computed (e.g. a mean over VMs): tabulate each VM's headline, its parts
            table.runs().forEach(run -> run.spec().vms().forEach(vm -> metricNames.computeIfAbsent(
                    "/summary/vmHeadline/" + vm.name().replace("~", "~0").replace("/", "~1") + "/value",
                    ptr -> metricName(ptr, metricNames.values()))));
        }
        String better = table.caption().toLowerCase(Locale.ROOT).contains("lower is better") ? "lower" : "higher";
        List<Map<String, Object>> metrics = new ArrayList<>();
        metricNames.forEach((pointer, name) -> metrics.add(Map.of("name", name, "pointer", pointer, "better", better)));
        Map<String, Object> definition = new LinkedHashMap<>();
        String name = s.id() + " table " + (index + 1) + ": " + table.caption();
        definition.put("name", name.length() > MAX_NAME ? name.substring(0, MAX_NAME - 3) + "..." : name);
        definition.put("seed", 1);
        definition.put("repetitions", repetitions);
        definition.put("base", json.createObjectNode());
        definition.put("axes", List.of(Map.of("name", "run", "variants", variants)));
        definition.put("metrics", metrics);
        if (audit) {
            return new TableSweep(table.caption(), table.rowHeader(), table.rows(), table.columns(), null, cells,
                    "checked by the command line's in-process trace audit (scenario " + s.id() + "); not run as a sweep");
        }
        return new TableSweep(table.caption(), table.rowHeader(), table.rows(), table.columns(), definition, cells, null);
    }

    /** A metric name from the last two tokens of its pointer ("vmHeadline.VM1"), unique in the table. */
    static String metricName(String pointer, java.util.Collection<String> taken) {
        String[] all = pointer.substring(1).split("/");
        // a headline's number is its "value" member: name the metric after the headline
        String[] tokens = all.length > 2 && all[all.length - 1].equals("value")
                ? java.util.Arrays.copyOf(all, all.length - 1) : all;
        String tail = tokens.length >= 2 ? tokens[tokens.length - 2] + "." + tokens[tokens.length - 1] : tokens[0];
        String name = tail.replace("~1", "/").replace("~0", "~").replaceAll("[^A-Za-z0-9_.-]", "_");
        if (name.isEmpty() || !Character.isLetter(name.charAt(0))) {
            name = "m" + name;
        }
        name = name.length() > 60 ? name.substring(0, 60) : name;
        String candidate = name;
        for (int i = 2; taken.contains(candidate); i++) {
            candidate = name + "_" + i;
        }
        return candidate;
    }

    private static String unique(String label, Set<String> seen) {
        String base = label.length() > 90 ? label.substring(0, 90) : label;
        String candidate = base;
        for (int i = 2; !seen.add(candidate); i++) {
            candidate = base + " #" + i;
        }
        return candidate;
    }

    /** Optional changes of a scenario run: repetitions of every cell, simulated seconds of every run. */
    @Schema(name = "ScenarioRunOverrides", description = "Optional changes of a scenario run")
    public record Overrides(Integer repetitions, Double durationSeconds) {
    }

    /** The definition as JSON text, exactly what POST /api/v1/sweeps takes, with the overrides applied. */
    public String definitionJson(TableSweep table, Overrides overrides) {
        ObjectNode definition = json.valueToTree(table.definition());
        if (overrides.repetitions() != null) {
            definition.put("repetitions", overrides.repetitions());
        }
        if (overrides.durationSeconds() != null) {
            for (JsonNode variant : definition.at("/axes/0/variants")) {
                ((ObjectNode) variant.get("patch")).put("durationSeconds", overrides.durationSeconds());
            }
        }
        return json.writeValueAsString(definition);
    }
}

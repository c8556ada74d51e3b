package io.schedlab.engine.catalogue;

import io.schedlab.engine.catalogue.ScenarioTable.RatioReference;
import io.schedlab.engine.sweepgrid.SweepDefinition.Axis;
import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
import io.schedlab.engine.sweepgrid.SweepDefinition.Direction;
import io.schedlab.engine.sweepgrid.SweepDefinition.Metric;
import io.schedlab.engine.sweepgrid.SweepDefinition.PublishedCell;
import io.schedlab.engine.sweepgrid.SweepDefinition.PublishedTable;
import io.schedlab.engine.sweepgrid.SweepDefinition.Reference;
import io.schedlab.engine.sweepgrid.SweepDefinition.Variant;
import io.schedlab.engine.sweepgrid.SweepDefinition;
import io.schedlab.engine.sweepgrid.SweepPlanner;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A scenario table as the sweep definition that fills it: the one form that the command line
 * runs and the service serves and runs. One axis {@value #AXIS} with a variant per run of the
 * table (its whole experiment as a JSON merge patch of an empty base, seed left to the sweep),
 * the table's seeds (the runs' seed + 0..repeats-1), one metric per distinct value source of its
 * cells (better as the metric says, else "lower" when the caption says lower is better, else
 * "higher"), and the published table: rows, columns, reference and each cell's variant, metric and
 * published number.
 */
public final class ScenarioSweep {

    /** The name of a scenario sweep's one axis. */
    public static final String AXIS = "run";
    /** Pointers of the command line's in-process affinity audit ({@link ScenarioRunner#AUDIT_FIELD}). */
    static final String AUDIT = "/" + ScenarioRunner.AUDIT_FIELD;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ScenarioSweep() {
    }

    /** The sweep definition of table {@code index} of the scenario. */
    public static SweepDefinition of(Scenario s, int index) {
        ScenarioTable table = s.tables().get(index);
        Direction better = table.caption().toLowerCase(Locale.ROOT).contains("lower is better")
                ? Direction.LOWER : Direction.HIGHER;
        Map<Metric, Metric> metrics = new LinkedHashMap<>();
        Set<String> names = new LinkedHashSet<>();
        Set<String> labels = new LinkedHashSet<>();
        List<Variant> variants = new ArrayList<>();
        List<PublishedCell> cells = new ArrayList<>();
        ScenarioRun first = table.runs().get(0);
        for (ScenarioRun run : table.runs()) {
            if (run.repeats() != first.repeats() || !seed(run).equals(seed(first))) {
                throw new IllegalStateException(s.id() + ": the runs of a table share seed and repeats ("
                        + run.label() + ")");
            }
            String label = unique(run.label(), labels);
            ObjectNode patch = withoutNulls(JSON.valueToTree(run.spec()));
            patch.remove("seed"); // the sweep's seeds
            variants.add(new Variant(label, patch));
            for (Measure m : run.measures()) {
                Metric metric = metrics.computeIfAbsent(m.metric().named(null, null),
                        k -> m.metric().named(uniqueName(m.metric().name(), names),
                                m.metric().better() != null ? m.metric().better() : better));
                cells.add(new PublishedCell(m.row(), m.column(), Map.of(AXIS, label), metric.name(), m.published(),
                        run.note(), band(table, m, s.title())));
            }
        }
        RatioReference ratio = table.ratioTo();
        Reference reference = ratio == null ? null
                : ratio.column() ? new Reference(ratio.name(), null) : new Reference(null, ratio.name());
        PublishedTable published = new PublishedTable(table.caption(), table.rowHeader(), table.rows(), table.columns(),
                reference, cells);
        String name = s.id() + " table " + (index + 1) + ": " + table.caption();
        if (name.length() > SweepPlanner.MAX_NAME_LENGTH) {
            name = name.substring(0, SweepPlanner.MAX_NAME_LENGTH - 3) + "...";
        }
        List<Long> seeds = LongStream.range(0, first.repeats()).map(r -> seed(first) + r).boxed().toList();
        return new SweepDefinition(name, JSON.createObjectNode(), List.of(new Axis(AXIS, null, null, variants)),
                seeds.size(), null, List.copyOf(metrics.values()), null, seeds, published);
    }

    /**
     * The cell's tolerance band: none in a table that is not scored; its own (the source's spread)
     * when it has one; none for an unpublished cell or the reference cell itself; else the rule band around the published effect
     * against the reference cell, or around the value in a table without a reference.
     */
    static Band band(ScenarioTable table, Measure m, String source) {
        if (!table.scored() || m.band() != null || m.published() == null) {
            return table.scored() ? m.band() : null;
        }
        RatioReference ref = table.ratioTo();
        if (ref == null) {
            return Bands.value(m.published(), source);
        }
        String refRow = ref.column() ? m.row() : ref.name();
        String refColumn = ref.column() ? ref.name() : m.column();
        if (refRow.equals(m.row()) && refColumn.equals(m.column())) {
            return null;
        }
        Double refPublished = table.runs().stream().flatMap(r -> r.measures().stream())
                .filter(x -> x.row().equals(refRow) && x.column().equals(refColumn))
                .map(Measure::published).filter(v -> v != null && v != 0).findFirst().orElse(null);
        return refPublished == null ? null : Bands.rule(m.published() / refPublished - 1, source);
    }

    /**
     * The spec's JSON without its unset (null) members, at every depth: the engine's defaults fill
     * them either way, and a downloaded definition reads like the set-up. (In a merge patch of an
     * empty base a null member would remove nothing.)
     */
    private static ObjectNode withoutNulls(ObjectNode node) {
        node.properties().removeIf(e -> e.getValue().isNull());
        node.forEach(ScenarioSweep::stripNested);
        return node;
    }

    private static void stripNested(JsonNode child) {
        if (child.isObject()) {
            withoutNulls((ObjectNode) child);
        } else if (child.isArray()) {
            child.forEach(ScenarioSweep::stripNested);
        }
    }

    /** Whether the table reads the command line's in-process affinity audit, which the service's runs do not have. */
    public static boolean needsAudit(SweepDefinition d) {
        return d.metrics().stream().anyMatch(m -> m.pointer() != null && m.pointer().startsWith(AUDIT));
    }

    /** The first seed of a run: the spec's seed (1 when unset, the engine's default). */
    private static Long seed(ScenarioRun run) {
        return run.spec().seed() == null ? 1L : run.spec().seed();
    }

    /**
     * A metric name from the last two tokens of its pointer ("vmHeadline.VM1"; three when the first of
     * them is an array index: "vms.1.cpuNanosAllVcpus"); a headline's "value" is left out. A scaled
     * metric drops "Nanos" and names its unit: "decision.p50.us".
     */
    static String metricName(String pointer, double scale) {
        String[] all = pointer.substring(1).split("/");
        String[] tokens = all.length > 2 && all[all.length - 1].equals("value")
                ? java.util.Arrays.copyOf(all, all.length - 1) : all;
        int take = Math.min(tokens.length, tokens.length >= 3 && tokens[tokens.length - 2].matches("\\d+") ? 3 : 2);
        String tail = String.join(".", java.util.Arrays.copyOfRange(tokens, tokens.length - take, tokens.length));
        if (scale != 1) {
            tail = tail.replace("Nanos", "") + "." + (scale == 1e-3 ? "us" : scale == 1e-9 ? "s" : "x" + scale);
        }
        String name = tail.replace("~1", "/").replace("~0", "~").replaceAll("[^A-Za-z0-9_.-]", "_");
        if (name.isEmpty() || !Character.isLetter(name.charAt(0))) {
            name = "m" + name;
        }
        return name.length() > 60 ? name.substring(0, 60) : name;
    }

    private static String uniqueName(String name, Collection<String> taken) {
        String candidate = name;
        for (int i = 2; taken.contains(candidate); i++) {
            candidate = name + "_" + i;
        }
        taken.add(candidate);
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
}

package io.schedlab.engine.sweepgrid;

import io.schedlab.engine.sweepgrid.SweepDefinition.Axis;
import io.schedlab.engine.sweepgrid.SweepDefinition.Metric;
import io.schedlab.engine.sweepgrid.SweepDefinition.Variant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks a sweep definition and expands it into its grid: every problem of the document is
 * named by a JSON pointer into it, and nothing is expanded while there is one. Cells are the
 * cartesian product of the axes' levels, the first axis varying slowest.
 */
public final class SweepPlanner {

    /** Most problems listed in one 422 answer (the total is given too). */
    public static final int MAX_REPORTED_VIOLATIONS = 50;
    /** Axis and metric names: they become CSV column names and values, so plain identifiers. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,62}");
    /** Most characters in a level label (a variant's name or a value's JSON text). */
    public static final int MAX_LEVEL_LENGTH = 100;
    /** Column names of the tidy table; an axis may not take one of them. */
    public static final Set<String> RESERVED = Set.of("cell", "cellKey", "metric", "pointer", "unit", "better", "n",
            "missing", "mean", "sd", "ci95Low", "ci95High", "min", "max", "baselineMean", "deltaPercent",
            "improvementPercent", "publishedRow", "publishedColumn", "published", "effect", "publishedEffect");
    /** Most characters in a sweep's name (as an experiment's; children's names are cut to fit). */
    public static final int MAX_NAME_LENGTH = 200;
    /** Most pointers one metric may average ({@code meanOf}). */
    public static final int MAX_MEAN_OF = 64;

    /** Longest unit a metric may declare. */
    public static final int MAX_UNIT_LENGTH = 32;
    private static final long DEFAULT_SEED = 1;

    private final SweepLimits limits;

    public SweepPlanner(SweepLimits limits) {
        this.limits = limits;
    }

    /** The expanded plan, or {@link InvalidSweepException} listing every problem of the definition. */
    public SweepPlan plan(SweepDefinition d) {
        // sizes first: nothing below is proportional to a count that is over its limit
        List<SweepViolation> out = new ArrayList<>(SweepSizes.check(d, limits));
        if (!out.isEmpty()) {
            throw invalid(out);
        }
        if (d.name() != null && d.name().chars().anyMatch(Character::isISOControl)) {
            out.add(SweepViolation.of("/name", "at most " + MAX_NAME_LENGTH + " characters, no control characters"));
        }
        if (d.base() == null || !d.base().isObject()) {
            out.add(SweepViolation.of("/base", "the base experiment is required, as a JSON object"));
        }
        List<Axis> axes = d.axes() == null ? List.of() : d.axes();
        List<List<String>> levels = new ArrayList<>();
        Set<String> axisNames = new HashSet<>();
        for (int i = 0; i < axes.size(); i++) {
            levels.add(checkAxis(axes.get(i), "/axes/" + i, axisNames, out));
        }
        int repetitions = d.repetitions() != null ? d.repetitions() : d.seeds() != null ? d.seeds().size() : 1;
        checkSeeds(d.seeds(), repetitions, out);
        checkMetrics(d.metrics(), out);
        if (!out.isEmpty()) {
            throw invalid(out);
        }
        List<String> names = axes.stream().map(Axis::name).toList();
        List<SweepCell> grid = grid(names, levels);
        Integer baseline = baselineCell(d.baseline(), names, levels, grid, out);
        List<ObjectNode> experiments = new ArrayList<>();
        for (SweepCell cell : grid) {
            experiments.add(expand((ObjectNode) d.base(), axes, cell, out));
        }
        PublishedTables.check(d.published(), names, levels, d.metrics(), limits, out);
        if (!out.isEmpty()) {
            throw invalid(out);
        }
        long seed = d.seed() != null ? d.seed() : d.base().path("seed").isIntegralNumber()
                ? d.base().path("seed").asLong() : DEFAULT_SEED;
        List<Long> seeds = d.seeds() != null ? List.copyOf(d.seeds()) : SeedSequence.of(seed, repetitions);
        return new SweepPlan(d, names, grid, experiments, seeds, baseline);
    }

    private static void checkSeeds(List<Long> seeds, int repetitions, List<SweepViolation> out) {
        if (seeds == null) {
            return;
        }
        if (seeds.size() != repetitions) {
            out.add(SweepViolation.of("/seeds", "one seed per repetition: " + seeds.size() + " seeds for "
                    + repetitions + " repetitions"));
        }
        for (int i = 0; i < seeds.size(); i++) {
            if (seeds.get(i) == null || seeds.get(i) < 0) {
                out.add(SweepViolation.of("/seeds/" + i, "a seed is a non-negative integer"));
            }
        }
    }

    /** The exception for these problems, listing at most {@link #MAX_REPORTED_VIOLATIONS}. */
    public static InvalidSweepException invalid(List<SweepViolation> violations) {
        return new InvalidSweepException(violations.subList(0, Math.min(MAX_REPORTED_VIOLATIONS, violations.size())),
                violations.size());
    }

    private static List<String> checkAxis(Axis axis, String at, Set<String> names, List<SweepViolation> out) {
        if (axis == null) {
            out.add(SweepViolation.of(at, "an axis is an object with name and pointer + values, or name and variants"));
            return List.of();
        }
        if (axis.name() == null || !NAME.matcher(axis.name()).matches()) {
            out.add(SweepViolation.of(at + "/name", "required: 1-63 letters, digits, '_', '.', '-', starting with a letter"));
        } else if (RESERVED.contains(axis.name())) {
            out.add(SweepViolation.of(at + "/name", "'" + axis.name() + "' is a column of the table; pick another name"));
        } else if (!names.add(axis.name())) {
            out.add(SweepViolation.of(at + "/name", "another axis is already named '" + axis.name() + "'"));
        }
        boolean byValues = axis.pointer() != null || axis.values() != null;
        boolean byVariants = axis.variants() != null;
        if (byValues == byVariants) {
            out.add(SweepViolation.of(at, "give either pointer and values, or variants"));
            return List.of();
        }
        List<String> levels = new ArrayList<>();
        if (byValues) {
            checkPointer(axis.pointer(), at + "/pointer", true, out);
            if (axis.values() == null || axis.values().isEmpty()) {
                out.add(SweepViolation.of(at + "/values", "at least one value"));
                return List.of();
            }
            for (int v = 0; v < axis.values().size(); v++) {
                JsonNode value = axis.values().get(v);
                levels.add(level(value == null || value.isString() ? value == null ? "null" : value.asString()
                        : value.toString(), at + "/values/" + v, levels, out));
            }
        } else {
            if (axis.variants().isEmpty()) {
                out.add(SweepViolation.of(at + "/variants", "at least one variant"));
                return List.of();
            }
            for (int v = 0; v < axis.variants().size(); v++) {
                Variant variant = axis.variants().get(v);
                String vat = at + "/variants/" + v;
                if (variant == null || variant.name() == null || variant.name().isBlank()) {
                    out.add(SweepViolation.of(vat + "/name", "every variant needs a name"));
                    levels.add("");
                    continue;
                }
                if (variant.patch() == null || !variant.patch().isObject()) {
                    out.add(SweepViolation.of(vat + "/patch", "a JSON merge patch (RFC 7396) object is required"));
                }
                levels.add(level(variant.name(), vat + "/name", levels, out));
            }
        }
        return levels;
    }

    private static String level(String label, String at, List<String> seen, List<SweepViolation> out) {
        if (label.length() > MAX_LEVEL_LENGTH || label.chars().anyMatch(Character::isISOControl)) {
            out.add(SweepViolation.of(at, "a level's label (a variant name, or a value as JSON text) is at most "
                    + MAX_LEVEL_LENGTH + " characters without control characters"));
        } else if (seen.contains(label)) {
            out.add(SweepViolation.of(at, "'" + label + "' appears twice on this axis"));
        }
        return label;
    }

    private static void checkPointer(String pointer, String at, boolean intoExperiment, List<SweepViolation> out) {
        if (pointer == null || pointer.isEmpty() || !pointer.startsWith("/")) {
            out.add(SweepViolation.of(at, "a JSON pointer (RFC 6901) such as \"/vms/0/vcpus\" is required"));
            return;
        }
        try {
            JsonPointer.compile(pointer);
        } catch (IllegalArgumentException e) {
            out.add(SweepViolation.of(at, "not a JSON pointer: " + e.getMessage()));
            return;
        }
        if (intoExperiment && (pointer.equals("/seed") || pointer.startsWith("/labels"))) {
            out.add(SweepViolation.of(at, "the sweep sets each child's seed (from its seed and repetitions) and"
                    + " labels; vary something else"));
        }
    }

    private static void checkMetrics(List<Metric> metrics, List<SweepViolation> out) {
        if (metrics == null || metrics.isEmpty()) {
            out.add(SweepViolation.of("/metrics", "at least one metric: {\"name\", \"pointer\" into the result, \"better\": \"higher\"|\"lower\"}"));
            return;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < metrics.size(); i++) {
            Metric m = metrics.get(i);
            String at = "/metrics/" + i;
            if (m == null) {
                out.add(SweepViolation.of(at, "a metric is an object with name, pointer and better"));
                continue;
            }
            if (m.name() == null || !NAME.matcher(m.name()).matches()) {
                out.add(SweepViolation.of(at + "/name", "required: 1-63 letters, digits, '_', '.', '-', starting with a letter"));
            } else if (!names.add(m.name())) {
                out.add(SweepViolation.of(at + "/name", "another metric is already named '" + m.name() + "'"));
            }
            checkSource(m, at, out);
            if (m.scale() != null && !(Double.isFinite(m.scale()) && m.scale() != 0)) {
                out.add(SweepViolation.of(at + "/scale", "a finite, non-zero factor"));
            }
            if (m.unit() != null && (m.unit().isBlank() || m.unit().length() > MAX_UNIT_LENGTH)) {
                out.add(SweepViolation.of(at + "/unit", "1 to " + MAX_UNIT_LENGTH + " characters, e.g. ms or records/s"));
            }
            if (m.better() == null) {
                out.add(SweepViolation.of(at + "/better", "required: \"higher\" or \"lower\" (which value is the better one)"));
            }
        }
    }

    /** Exactly one of pointer, meanOf (1..MAX_MEAN_OF pointers) and computed (a {@link ComputedMetric} name). */
    private static void checkSource(Metric m, String at, List<SweepViolation> out) {
        int given = (m.pointer() != null ? 1 : 0) + (m.meanOf() != null ? 1 : 0) + (m.computed() != null ? 1 : 0);
        if (given > 1) {
            out.add(SweepViolation.of(at, "give exactly one of pointer, meanOf and computed"));
        } else if (m.meanOf() != null) {
            if (m.meanOf().isEmpty() || m.meanOf().size() > MAX_MEAN_OF) {
                out.add(SweepViolation.of(at + "/meanOf", "between 1 and " + MAX_MEAN_OF + " JSON pointers"));
            }
            for (int p = 0; p < m.meanOf().size() && p < MAX_MEAN_OF; p++) {
                checkPointer(m.meanOf().get(p), at + "/meanOf/" + p, false, out);
            }
        } else if (m.computed() != null) {
            if (ComputedMetric.byName(m.computed()).isEmpty()) {
                out.add(SweepViolation.of(at + "/computed", "unknown figure '" + m.computed() + "'; known: "
                        + java.util.Arrays.stream(ComputedMetric.values()).map(ComputedMetric::jsonName).toList()));
            }
        } else {
            checkPointer(m.pointer(), at + "/pointer", false, out);
        }
    }

    private static List<SweepCell> grid(List<String> names, List<List<String>> levels) {
        List<SweepCell> cells = new ArrayList<>();
        int count = levels.stream().mapToInt(List::size).reduce(1, (a, b) -> a * b);
        for (int index = 0; index < count; index++) {
            Map<String, String> at = new LinkedHashMap<>();
            int rest = index;
            for (int a = names.size() - 1; a >= 0; a--) {
                int size = levels.get(a).size();
                at.put(names.get(a), levels.get(a).get(rest % size));
                rest /= size;
            }
            Map<String, String> ordered = new LinkedHashMap<>();
            names.forEach(n -> ordered.put(n, at.get(n)));
            cells.add(new SweepCell(index, key(ordered), ordered));
        }
        return cells;
    }

    private static String key(Map<String, String> levels) {
        if (levels.isEmpty()) {
            return "all";
        }
        StringBuilder sb = new StringBuilder();
        levels.forEach((axis, level) -> sb.append(sb.length() == 0 ? "" : ", ").append(axis).append('=').append(level));
        return sb.toString();
    }

    private static Integer baselineCell(Map<String, String> baseline, List<String> names, List<List<String>> levels,
            List<SweepCell> grid, List<SweepViolation> out) {
        if (baseline == null) {
            return null;
        }
        for (String axis : baseline.keySet()) {
            if (!names.contains(axis)) {
                out.add(SweepViolation.of("/baseline/" + escape(axis), "no axis is named '" + axis + "'; axes: " + names));
            }
        }
        for (int a = 0; a < names.size(); a++) {
            String level = baseline.get(names.get(a));
            if (level == null) {
                out.add(SweepViolation.of("/baseline", "the baseline names one level of every axis; missing '"
                        + names.get(a) + "' (one of " + levels.get(a) + ")"));
            } else if (!levels.get(a).contains(level)) {
                out.add(SweepViolation.of("/baseline/" + escape(names.get(a)), "'" + level + "' is not a level of axis '"
                        + names.get(a) + "' (one of " + levels.get(a) + ")"));
            }
        }
        if (!out.isEmpty()) {
            return null;
        }
        return grid.stream().filter(c -> c.levels().equals(baseline)).map(SweepCell::index).findFirst().orElse(null);
    }

    private static ObjectNode expand(ObjectNode base, List<Axis> axes, SweepCell cell, List<SweepViolation> out) {
        JsonNode experiment = base.deepCopy();
        for (int a = 0; a < axes.size(); a++) {
            Axis axis = axes.get(a);
            String level = cell.levels().get(axis.name());
            if (axis.variants() != null) {
                Variant variant = axis.variants().stream().filter(v -> v.name().equals(level)).findFirst().orElseThrow();
                experiment = MergePatch.apply(experiment, variant.patch());
            } else {
                int v = indexOfLevel(axis, level);
                String problem = set((ObjectNode) experiment, JsonPointer.compile(axis.pointer()), axis.values().get(v));
                if (problem != null) {
                    out.add(new SweepViolation("/axes/" + a + "/pointer", problem, cell.key(), cell.index(), axis.pointer()));
                }
            }
        }
        return (ObjectNode) experiment;
    }

    private static int indexOfLevel(Axis axis, String level) {
        for (int v = 0; v < axis.values().size(); v++) {
            JsonNode value = axis.values().get(v);
            String label = value == null ? "null" : value.isString() ? value.asString() : value.toString();
            if (label.equals(level)) {
                return v;
            }
        }
        throw new IllegalStateException("no value of axis " + axis.name() + " is " + level);
    }

    /** Sets the value at the pointer; the parent must exist (an object member may be new). Null when done, else why not. */
    static String set(ObjectNode root, JsonPointer pointer, JsonNode value) {
        JsonNode parent = root.at(pointer.head());
        String last = pointer.last().getMatchingProperty();
        if (parent.isObject()) {
            ((ObjectNode) parent).set(last, value == null ? root.nullNode() : value.deepCopy());
            return null;
        }
        if (parent.isArray()) {
            int index = pointer.last().getMatchingIndex();
            ArrayNode array = (ArrayNode) parent;
            if (index < 0 || index >= array.size()) {
                return "index " + last + " is outside the array at " + pointer.head() + " (size " + array.size() + ")";
            }
            array.set(index, value == null ? root.nullNode() : value.deepCopy());
            return null;
        }
        return "nothing to set: " + (pointer.head().toString().isEmpty() ? "the experiment" : pointer.head())
                + " is not an object or array in the experiment of this cell";
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}

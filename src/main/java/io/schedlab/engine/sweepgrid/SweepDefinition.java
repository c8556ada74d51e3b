package io.schedlab.engine.sweepgrid;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A sweep as a user submits it: a base experiment, axes to vary it over, repetitions with seeds
 * derived from {@code seed} (or listed in {@code seeds}), the result metrics to tabulate, an
 * optional baseline cell (one level per axis) and, for a published experiment, the published
 * table its cells are compared with. Fields are nullable as sent; {@link SweepPlanner} checks
 * them. The service reads it from JSON; the command line builds the built-in scenarios' ones
 * in Java ({@code io.schedlab.engine.catalogue.ScenarioSweep}); both expand it with the planner.
 * The {@code @Schema} annotations are documentation metadata only (swagger-annotations, no Spring).
 */
@Schema(description = "A sweep: a base experiment varied over axes, repeated, with the result metrics to tabulate")
public record SweepDefinition(
        @Schema(description = "name of the sweep (children are named after it and their cell), at most 200 characters")
        String name,
        @Schema(description = "the base experiment, as POST /api/v1/experiments takes it", type = "object",
                implementation = Object.class)
        JsonNode base,
        @Schema(description = "the grid: cells are every combination of one level per axis (first axis slowest)")
        List<Axis> axes,
        @Schema(description = "runs per cell, default 1; repetition r uses the r-th seed derived from seed in every cell")
        Integer repetitions,
        @Schema(description = "seed of the repetitions' seeds; default the base experiment's seed, else 1")
        Long seed,
        @Schema(description = "numbers to tabulate per cell")
        List<Metric> metrics,
        @Schema(description = "the cell to compare against: axis name -> level (a variant's name, or a value as JSON text, e.g. \"2\")")
        Map<String, String> baseline,
        @Schema(description = "the repetitions' seeds, one per repetition (repetitions defaults to their number);"
                + " instead of seeds derived from seed, e.g. a published experiment's consecutive seeds")
        List<Long> seeds,
        @Schema(description = "the published table these cells are compared with (null: none); the sweep's table then"
                + " shows published values and effects beside the simulated ones, in the published shape")
        PublishedTable published) {

    /** A definition without explicit seeds or a published table. */
    public SweepDefinition(String name, JsonNode base, List<Axis> axes, Integer repetitions, Long seed,
            List<Metric> metrics, Map<String, String> baseline) {
        this(name, base, axes, repetitions, seed, metrics, baseline, null, null);
    }

    /**
     * One dimension of the grid: either {@code pointer} (RFC 6901, into the experiment) with
     * {@code values} set there, or named {@code variants}, each a JSON merge patch (RFC 7396).
     */
    @Schema(name = "SweepAxis", description = "An axis: pointer + values, or variants")
    public record Axis(
            @Schema(description = "axis name: a column of the table (letters, digits, '_', '.', '-')") String name,
            @Schema(description = "JSON pointer (RFC 6901) into the experiment where each value is set") String pointer,
            @Schema(description = "the values set at pointer, one level each", type = "array",
                    implementation = Object.class) List<JsonNode> values,
            @Schema(description = "named changes of the base, one level each") List<Variant> variants) {
    }

    /** A named change of the base experiment, as a JSON merge patch (RFC 7396). */
    @Schema(name = "SweepVariant", description = "A named JSON merge patch (RFC 7396) of the base experiment")
    public record Variant(@Schema(description = "the level's label") String name,
            @Schema(description = "JSON merge patch (RFC 7396): members merge, null removes", type = "object",
                    implementation = Object.class) JsonNode patch) {
    }

    /**
     * A number to tabulate from each child's result document: the number at {@code pointer}, or the
     * mean of the numbers at the {@code meanOf} pointers (missing if any is), or a {@code computed}
     * figure ({@link ComputedMetric}); times {@code scale} (default 1, e.g. 1e-9 for ns to s).
     */
    @Schema(name = "SweepMetric", description = "A number read from each child's result document")
    public record Metric(@Schema(description = "metric name: the table's metric column") String name,
            @Schema(description = "JSON pointer (RFC 6901) into the result document, e.g. /summary/jainIndex;"
                    + " give exactly one of pointer, meanOf and computed") String pointer,
            @Schema(description = "higher or lower: which value is the better one (signs improvementPercent)") Direction better,
            @Schema(description = "JSON pointers whose numbers are averaged in each child (e.g. every guest's headline)")
            List<String> meanOf,
            @Schema(description = "a figure computed from the whole result document: overheadPercent (scheduler"
                    + " overhead as a percentage of all pCPU time)") String computed,
            @Schema(description = "factor applied to each child's value (default 1), e.g. 1e-9 for ns to s") Double scale,
            @Schema(description = "unit of the metric's values as the table and CSV print it (at most "
                    + SweepPlanner.MAX_UNIT_LENGTH + " characters, e.g. records/s); absent: from the result"
                    + " document's naming (p99Nanos: ns, x scale 1e-3: us; a headline's own unit)") String unit) {

        /** A metric reading one pointer, unscaled. */
        public Metric(String name, String pointer, Direction better) {
            this(name, pointer, better, null, null, null, null);
        }

        /** A metric without a declared unit (its unit follows from the result document's naming). */
        public Metric(String name, String pointer, Direction better, List<String> meanOf, String computed, Double scale) {
            this(name, pointer, better, meanOf, computed, scale, null);
        }

        /** This metric read from one result document, or null when absent or not a finite number. */
        public Double read(JsonNode result) {
            Double value;
            if (computed != null) {
                value = ComputedMetric.byName(computed).map(c -> c.apply(result)).orElse(null);
            } else if (meanOf != null) {
                value = mean(result, meanOf);
            } else {
                value = number(result.at(pointer));
            }
            return value == null || !Double.isFinite(value) ? null : scale == null ? value : value * scale;
        }

        /** The same metric under another name and direction. */
        public Metric named(String newName, Direction newBetter) {
            return new Metric(newName, pointer, newBetter, meanOf, computed, scale, unit);
        }

        private static Double mean(JsonNode result, List<String> pointers) {
            double sum = 0;
            for (String p : pointers) {
                Double v = number(result.at(p));
                if (v == null) {
                    return null;
                }
                sum += v;
            }
            return pointers.isEmpty() ? null : sum / pointers.size();
        }

        private static Double number(JsonNode node) {
            return node == null || !node.isNumber() ? null : node.doubleValue();
        }
    }

    /** Whether a larger or a smaller value of a metric is the better one. */
    public enum Direction {
        HIGHER, LOWER;

        @JsonValue
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Direction fromJson(String value) {
            return Direction.valueOf(value.trim().toUpperCase(Locale.ROOT));
        }
    }

    /**
     * The published table a sweep's cells are compared with: caption, row header, rows and columns
     * as the source prints them, what ratios (and effects = ratio - 1) are relative to, and where
     * each published cell's simulated value comes from.
     */
    @Schema(name = "SweepPublishedTable", description = "The published table beside the simulated one")
    public record PublishedTable(@Schema(description = "the table's caption, with its unit") String caption,
            @Schema(description = "header of the row labels") String rowHeader,
            @Schema(description = "row labels in the published order") List<String> rows,
            @Schema(description = "column labels in the published order") List<String> columns,
            @Schema(description = "ratios and effects are against this column (same row) or row (same column); null: none")
            Reference reference,
            @Schema(description = "every published cell: its place, the sweep cell and metric that fill it, the published number")
            List<PublishedCell> cells) {
    }

    /** What ratios are relative to: a column (the reference is in the same row) or a row (in the same column). */
    @Schema(name = "SweepPublishedReference", description = "Give column or row: ratios are value / the reference cell")
    public record Reference(@Schema(description = "the reference column (same row)") String column,
            @Schema(description = "the reference row (same column)") String row) {
    }

    /** One cell of the published table: row, column, the sweep cell (one level per axis) and metric, the number. */
    @Schema(name = "SweepPublishedCell", description = "A published cell and the sweep cell and metric that fill it")
    public record PublishedCell(String row, String column,
            @Schema(description = "the sweep cell: axis name -> level, as in baseline") Map<String, String> cell,
            @Schema(description = "name of the metric of the sweep that fills it") String metric,
            @Schema(description = "the published number in the metric's unit; null when the source gives none") Double value,
            @Schema(description = "a remark on the simulated cell (e.g. a stand-in), else null") String note,
            @Schema(description = "the tolerance the source allows this cell; null: the cell is shown, not scored") Band band) {

        /** A cell without a tolerance band (shown beside the simulated value, not scored). */
        public PublishedCell(String row, String column, Map<String, String> cell, String metric, Double value,
                String note) {
            this(row, column, cell, metric, value, note, null);
        }
    }

    /**
     * The tolerance of a published cell, taken from its source: the simulated quantity ({@code on}:
     * the cell's effect = ratio - 1 against the table's reference, or its value where the table has
     * no reference) passes when it lies in [low, high]. {@code kind} says where the bounds come from:
     * {@code spread} (the source's own run-to-run range), {@code relative} (the published effect's
     * direction and size within 25%), {@code points} (an effect under 5%: within 2 points).
     */
    @Schema(name = "SweepPublishedBand", description = "The tolerance of a published cell: the simulated effect (or"
            + " value) passes when low <= it <= high")
    public record Band(@Schema(description = "where the bounds come from: spread (the source's own runs), relative"
                    + " (direction and effect within 25%), points (an effect under 5%: within 2 points)") String kind,
            @Schema(description = "what is compared: effect (ratio - 1 against the table's reference) or value (the"
                    + " cell's own number, in a table without a reference)") String on,
            @Schema(description = "lowest passing effect or value") Double low,
            @Schema(description = "highest passing effect or value") Double high,
            @Schema(description = "the source of the bounds, in words") String source) {

        /** The kinds a band may have. */
        public static final List<String> KINDS = List.of("spread", "relative", "points");
        /** What a band may bound. */
        public static final List<String> QUANTITIES = List.of("effect", "value");

        /** Whether {@code x} (the cell's effect or value, as {@code on} says) lies inside the band. */
        public boolean contains(double x) {
            return x >= low && x <= high;
        }
    }
}

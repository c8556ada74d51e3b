package io.schedlab.sweeps;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A sweep as a user submits it: a base experiment, axes to vary it over, repetitions with seeds
 * derived from {@code seed}, the result metrics to tabulate and an optional baseline cell (one
 * level per axis). Fields are nullable as sent; {@link SweepPlanner} checks them.
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
        Map<String, String> baseline) {

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

    /** A number to tabulate: a JSON pointer into each child's result document, and which way is better. */
    @Schema(name = "SweepMetric", description = "A number read from each child's result document")
    public record Metric(@Schema(description = "metric name: the table's metric column") String name,
            @Schema(description = "JSON pointer (RFC 6901) into the result document, e.g. /summary/jainIndex") String pointer,
            @Schema(description = "higher or lower: which value is the better one (signs improvementPercent)") Direction better) {
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
}

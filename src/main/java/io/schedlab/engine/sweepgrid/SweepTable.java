package io.schedlab.engine.sweepgrid;

import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
import io.schedlab.engine.sweepgrid.SweepDefinition.Direction;
import io.schedlab.engine.sweepgrid.SweepDefinition.Reference;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The tidy table of a sweep: one row per cell x metric over the SUCCEEDED children so far
 * ({@code complete} once every child has finished). % vs baseline: {@code deltaPercent} =
 * 100 x (mean - baseline mean) / |baseline mean| (positive: larger than the baseline);
 * {@code improvementPercent} is the same with the sign turned so that positive is always
 * better (= delta for higher-is-better metrics, -delta for lower-is-better ones). A sweep with a
 * published table also has it here ({@code published}), filled with the simulated values.
 */
@Schema(description = "The tidy table of a sweep: one row per cell x metric")
public record SweepTable(UUID sweepId, boolean complete, List<String> axes, Integer baselineCell, String baselineKey,
        String signConvention, List<Row> rows,
        @Schema(description = "the published table with the simulated values beside, in the published shape; null when"
                + " the sweep has none") PublishedView published) {

    /** How the % columns are signed, as stated in every table. */
    public static final String SIGN_CONVENTION = "deltaPercent = 100 * (mean - baselineMean) / |baselineMean|, positive"
            + " when the cell's mean is larger than the baseline's; improvementPercent = deltaPercent for metrics where"
            + " higher is better and -deltaPercent where lower is better, so positive always means better than the"
            + " baseline. Both are null without a baseline, when the baseline mean is 0 or when either mean is missing.";

    /** How the published comparison reads, as stated in every published view. */
    public static final String EFFECT_CONVENTION = "ratio = value / the reference cell's value (the reference column in"
            + " the same row, or the reference row in the same column); effect = ratio - 1, simulated (from the means)"
            + " and published (from the published numbers); null without a reference or a value.";

    /**
     * One cell x metric: {@code n} SUCCEEDED children with a numeric value at the pointer,
     * {@code missing} SUCCEEDED children without one; sd is the sample standard deviation (n-1)
     * and ci95 the Student-t 95% confidence interval of the mean (both null when n < 2). For a
     * cell x metric that fills a published cell: its row and column there, the published value
     * and both effects (see {@link #EFFECT_CONVENTION}); else null.
     */
    @Schema(name = "SweepTableRow", description = "Statistics of one metric in one cell over its SUCCEEDED children")
    public record Row(int cell, String cellKey, Map<String, String> levels, String metric, String pointer,
            @Schema(description = "unit of mean, sd, ci95Low, ci95High, min, max and baselineMean (the metric's"
                    + " declared unit, else from the result document's naming); absent: a count, a ratio, or"
                    + " not known") String unit,
            Direction better, long n, long missing, Double mean, Double sd, Double ci95Low, Double ci95High, Double min,
            Double max, Double baselineMean, Double deltaPercent, Double improvementPercent,
            @Schema(description = "row of the published table this cell x metric fills, else null") String publishedRow,
            @Schema(description = "column of the published table this cell x metric fills, else null") String publishedColumn,
            @Schema(description = "the published number of that cell (null: the source gives none)") Double published,
            @Schema(description = "simulated effect: mean / reference mean - 1") Double effect,
            @Schema(description = "published effect: published / reference published - 1") Double publishedEffect) {
    }

    /** The published table, rows and columns as published, each cell with the simulated statistics beside. */
    @Schema(name = "SweepPublishedView", description = "The published table with the simulated values, in the published shape")
    public record PublishedView(String caption, String rowHeader, List<String> rows, List<String> columns,
            Reference reference, String effectConvention,
            @Schema(description = "the cells in published order (row by row), those the definition fills") List<PublishedCellView> cells) {
    }

    /** One published cell: place, the sweep cell and metric, simulated statistics, published number, ratios and effects. */
    @Schema(name = "SweepPublishedCellView", description = "A published cell beside its simulated value")
    public record PublishedCellView(String row, String column, Integer cell, String cellKey, String metric, long n,
            Double mean, Double sd, Double published, Double ratio, Double publishedRatio, Double effect,
            Double publishedEffect, String note,
            @Schema(description = "the cell's tolerance band from its source; null: the cell is not scored") Band band,
            @Schema(description = "whether the simulated effect (or value, as the band's 'on' says) lies in the band;"
                    + " null when the cell has no band or no simulated value yet") Boolean pass) {
    }
}

package io.schedlab.sweeps;

import io.schedlab.sweeps.SweepDefinition.Direction;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The tidy table of a sweep: one row per cell x metric over the SUCCEEDED children so far
 * ({@code complete} once every child has finished). % vs baseline: {@code deltaPercent} =
 * 100 x (mean - baseline mean) / |baseline mean| (positive: larger than the baseline);
 * {@code improvementPercent} is the same with the sign turned so that positive is always
 * better (= delta for higher-is-better metrics, -delta for lower-is-better ones).
 */
@Schema(description = "The tidy table of a sweep: one row per cell x metric")
public record SweepTable(UUID sweepId, boolean complete, List<String> axes, Integer baselineCell, String baselineKey,
        String signConvention, List<Row> rows) {

    /** How the % columns are signed, as stated in every table. */
    public static final String SIGN_CONVENTION = "deltaPercent = 100 * (mean - baselineMean) / |baselineMean|, positive"
            + " when the cell's mean is larger than the baseline's; improvementPercent = deltaPercent for metrics where"
            + " higher is better and -deltaPercent where lower is better, so positive always means better than the"
            + " baseline. Both are null without a baseline, when the baseline mean is 0 or when either mean is missing.";

    /**
     * One cell x metric: {@code n} SUCCEEDED children with a numeric value at the pointer,
     * {@code missing} SUCCEEDED children without one; sd is the sample standard deviation (n-1)
     * and ci95 the Student-t 95% confidence interval of the mean (both null when n < 2).
     */
    @Schema(name = "SweepTableRow", description = "Statistics of one metric in one cell over its SUCCEEDED children")
    public record Row(int cell, String cellKey, Map<String, String> levels, String metric, String pointer,
            Direction better, long n, long missing, Double mean, Double sd, Double ci95Low, Double ci95High, Double min,
            Double max, Double baselineMean, Double deltaPercent, Double improvementPercent) {
    }
}

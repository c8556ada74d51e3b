package io.schedlab.engine.sweepgrid;

import io.schedlab.engine.sweepgrid.SweepDefinition.Axis;
import io.schedlab.engine.sweepgrid.SweepDefinition.Metric;
import io.schedlab.engine.sweepgrid.SweepDefinition.PublishedTable;
import io.schedlab.engine.sweepgrid.SweepDefinition.Variant;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The first pass over a sweep: every count a user controls (axes, levels per axis, repetitions,
 * seeds, metrics, published rows, columns and cells, baseline entries), the children they multiply
 * to (cells x repetitions) and the JSON those children would hold, each against its limit. It only
 * reads list sizes and the lengths of the document's own parts, so it costs no more than reading
 * the body did; nothing is expanded or checked element by element while one of these is exceeded
 * (a huge count then costs microseconds, not an expansion first).
 */
public final class SweepSizes {

    private SweepSizes() {
    }

    /** Every size problem of the definition, each naming its pointer and the limit (empty when none). */
    public static List<SweepViolation> check(SweepDefinition d, SweepLimits limits) {
        List<SweepViolation> out = new ArrayList<>();
        if (d.name() != null && d.name().length() > SweepPlanner.MAX_NAME_LENGTH) {
            out.add(SweepViolation.of("/name", "at most " + SweepPlanner.MAX_NAME_LENGTH + " characters, no control characters"));
        }
        List<Axis> axes = d.axes() == null ? List.of() : d.axes();
        if (axes.size() > limits.maxAxes()) {
            out.add(SweepViolation.of("/axes", "at most " + limits.maxAxes() + " axes (schedlab.sweeps.max-axes)"));
        } else {
            for (int i = 0; i < axes.size(); i++) {
                int levels = levels(axes.get(i));
                if (levels > limits.maxExperiments()) {
                    String list = axes.get(i).variants() != null ? "variants" : "values";
                    out.add(SweepViolation.of("/axes/" + i + "/" + list, "at most " + limits.maxExperiments() + " "
                            + list + ": each is a cell (schedlab.sweeps.max-experiments)"));
                }
            }
        }
        int seeds = d.seeds() == null ? 0 : d.seeds().size();
        if (seeds > limits.maxExperiments()) {
            out.add(SweepViolation.of("/seeds", "at most " + limits.maxExperiments()
                    + " seeds, one per repetition (schedlab.sweeps.max-experiments)"));
        }
        long repetitions = d.repetitions() != null ? d.repetitions() : d.seeds() != null ? seeds : 1;
        boolean fromSeeds = d.repetitions() == null && d.seeds() != null;
        if ((repetitions < 1 || repetitions > limits.maxExperiments()) && !(fromSeeds && seeds > limits.maxExperiments())) {
            out.add(SweepViolation.of("/repetitions", "must be between 1 and " + limits.maxExperiments()
                    + " (schedlab.sweeps.max-experiments)"));
        }
        checkMetrics(d.metrics(), limits, out);
        checkPublished(d.published(), limits, out);
        if (d.baseline() != null && d.baseline().size() > limits.maxAxes()) {
            out.add(SweepViolation.of("/baseline", "at most one level per axis, " + limits.maxAxes()
                    + " (schedlab.sweeps.max-axes)"));
        }
        if (!out.isEmpty()) {
            return out; // the products below would rest on counts already refused
        }
        long cells = cells(d);
        long total = cells * repetitions;
        if (total > limits.maxExperiments()) {
            out.add(SweepViolation.of("/axes", "the sweep expands to " + total + " experiments (" + cells
                    + " cells x " + repetitions + " repetitions); at most " + limits.maxExperiments()
                    + " (schedlab.sweeps.max-experiments)"));
            return out;
        }
        long childBytes = childBytes(d.base(), axes);
        if (total * childBytes > limits.maxExpandedBytes()) {
            out.add(SweepViolation.of("/base", "the sweep's " + total + " experiments would hold about "
                    + total * childBytes + " bytes of JSON (~" + childBytes + " each: the base and the largest level"
                    + " of each axis); at most " + limits.maxExpandedBytes() + " (schedlab.sweeps.max-expanded-bytes)"));
        }
        return out;
    }

    /**
     * Cells of a definition: the product of its axes' level counts (an axis without levels counts
     * 1), saturating at {@link Integer#MAX_VALUE} so no count overflows.
     */
    public static long cells(SweepDefinition d) {
        long cells = 1;
        for (Axis axis : d.axes() == null ? List.<Axis>of() : d.axes()) {
            cells = Math.min(cells * Math.max(1, levels(axis)), Integer.MAX_VALUE);
        }
        return cells;
    }

    private static int levels(Axis axis) {
        if (axis == null) {
            return 0;
        }
        return axis.variants() != null ? axis.variants().size() : axis.values() != null ? axis.values().size() : 0;
    }

    private static void checkMetrics(List<Metric> metrics, SweepLimits limits, List<SweepViolation> out) {
        if (metrics == null) {
            return;
        }
        if (metrics.size() > limits.maxMetrics()) {
            out.add(SweepViolation.of("/metrics", "at most " + limits.maxMetrics() + " metrics (schedlab.sweeps.max-metrics)"));
            return;
        }
        for (int i = 0; i < metrics.size(); i++) {
            Metric m = metrics.get(i);
            if (m != null && m.meanOf() != null && m.meanOf().size() > SweepPlanner.MAX_MEAN_OF) {
                out.add(SweepViolation.of("/metrics/" + i + "/meanOf", "between 1 and " + SweepPlanner.MAX_MEAN_OF
                        + " JSON pointers"));
            }
        }
    }

    private static void checkPublished(PublishedTable t, SweepLimits limits, List<SweepViolation> out) {
        if (t == null) {
            return;
        }
        int max = PublishedTables.MAX_LABELS;
        if (t.rows() != null && t.rows().size() > max) {
            out.add(SweepViolation.of("/published/rows", "between 1 and " + max + " labels"));
        }
        if (t.columns() != null && t.columns().size() > max) {
            out.add(SweepViolation.of("/published/columns", "between 1 and " + max + " labels"));
        }
        long most = Math.min((long) max * max, (long) limits.maxExperiments() * limits.maxMetrics());
        if (t.cells() != null && t.cells().size() > most) {
            out.add(SweepViolation.of("/published/cells", "at most one cell per row and column (" + most + ")"));
        }
    }

    /**
     * An upper estimate of one child's JSON: the base plus, per axis, its largest level (a value
     * set at the pointer, or a variant's patch). A child may hold less (a patch may remove members).
     */
    private static long childBytes(JsonNode base, List<Axis> axes) {
        long bytes = base == null ? 0 : base.toString().length();
        for (Axis axis : axes) {
            long largest = 0;
            if (axis != null && axis.values() != null) {
                for (JsonNode v : axis.values()) {
                    largest = Math.max(largest, v == null ? 4 : v.toString().length());
                }
            } else if (axis != null && axis.variants() != null) {
                for (Variant v : axis.variants()) {
                    largest = Math.max(largest, v == null || v.patch() == null ? 0 : v.patch().toString().length());
                }
            }
            bytes += largest;
        }
        return Math.max(1, bytes);
    }
}

package io.schedlab.engine.sweepgrid;

import io.schedlab.engine.sweepgrid.SweepDefinition.Metric;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The unit of a sweep metric's values, as the table and its CSV print it: the metric's own
 * {@code unit} when it declares one; else the result document's naming (docs/engine.md, "Result
 * document": a number's field name ends in its unit, {@code p99Nanos}, {@code workSeconds}, and a
 * headline carries its unit beside its value), changed by the metric's {@code scale} where that is
 * a known step (ns x 1e-3 = us); else empty (a count, a ratio, or a field that names no unit).
 */
public final class MetricUnit {

    /** Field-name endings of the result document and their units, longest first. */
    private static final List<Map.Entry<String, String>> SUFFIXES = List.of(
            Map.entry("PerSecond", "1/s"), Map.entry("Nanos", "ns"), Map.entry("Micros", "us"),
            Map.entry("Millis", "ms"), Map.entry("Seconds", "s"), Map.entry("Percent", "%"),
            Map.entry("Bytes", "B"), Map.entry("Us", "us"), Map.entry("Ms", "ms"), Map.entry("Ns", "ns"));

    /** Time units from the smallest, each 1000 times the one before. */
    private static final List<String> TIME = List.of("ns", "us", "ms", "s");

    private MetricUnit() {
    }

    /** The unit known from the metric alone (declared, computed or its pointer's name); null when it needs a document. */
    public static String declared(Metric metric) {
        if (metric.unit() != null) {
            return metric.unit();
        }
        if (metric.computed() != null) {
            return "%"; // overheadPercent, the one computed metric
        }
        String field = lastField(pointer(metric));
        if ("value".equals(field)) {
            return null; // a headline: its unit stands beside it in the document
        }
        return scaled(fromName(field), metric.scale());
    }

    /** The unit of a headline-style metric ({@code .../value} beside {@code .../unit}) read from one result document. */
    public static String fromDocument(Metric metric, JsonNode result) {
        String pointer = pointer(metric);
        if (pointer == null || !pointer.endsWith("/value")) {
            return "";
        }
        JsonNode unit = result.at(pointer.substring(0, pointer.length() - "value".length()) + "unit");
        return unit.isString() ? scaled(unit.asString(), metric.scale()) : "";
    }

    private static String pointer(Metric metric) {
        return metric.pointer() != null ? metric.pointer()
                : metric.meanOf() != null && !metric.meanOf().isEmpty() ? metric.meanOf().get(0) : null;
    }

    private static String lastField(String pointer) {
        return pointer == null ? "" : pointer.substring(pointer.lastIndexOf('/') + 1);
    }

    private static String fromName(String field) {
        for (Map.Entry<String, String> s : SUFFIXES) {
            if (field.endsWith(s.getKey()) && field.length() > s.getKey().length()) {
                return s.getValue();
            }
        }
        return "";
    }

    /** A unit times a scale: a time unit stepped by powers of 1000, else the scale written before the unit. */
    static String scaled(String unit, Double scale) {
        if (scale == null || scale == 1.0 || unit.isEmpty()) {
            return unit;
        }
        int at = TIME.indexOf(unit);
        if (at >= 0) {
            for (int step = -3; step <= 3; step++) {
                int to = at + step;
                if (to >= 0 && to < TIME.size() && Math.abs(scale - Math.pow(1000, -step)) <= 1e-12 * Math.pow(1000, -step)) {
                    return TIME.get(to);
                }
            }
        }
        return scale + " " + unit;
    }
}

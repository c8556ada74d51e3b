package io.schedlab.engine.knobs;

import io.schedlab.engine.spec.ExperimentSpec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An immutable set of knob values that replace the declared defaults in one run: {@link #apply} fills
 * each knob's value into an experiment wherever the experiment leaves that value out, so a value the
 * experiment gives itself always wins. The empty set ({@link #DEFAULTS}) returns the experiment
 * unchanged, so runs without overrides stay byte-identical.
 */
public final class KnobSet {

    /** No overrides: every knob at its declared default. */
    public static final KnobSet DEFAULTS = new KnobSet(Map.of());

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<Knob, Double> values;

    private KnobSet(Map<Knob, Double> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** This set with {@code knob} at {@code value} (clamped to its bounds, rounded if whole). */
    public KnobSet with(Knob knob, double value) {
        Map<Knob, Double> next = new LinkedHashMap<>(values);
        next.put(knob, knob.clamp(value));
        return new KnobSet(next);
    }

    /** The overridden knobs and their values, in the order they were set. */
    public Map<Knob, Double> values() {
        return values;
    }

    /** The knob's value in this set: its override, else its default. */
    public double valueOf(Knob knob) {
        return values.getOrDefault(knob, knob.defaultValue());
    }

    /** No knob overridden. */
    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The experiment with every overridden knob filled in where the experiment does not give the value. */
    public ExperimentSpec apply(ExperimentSpec raw) {
        if (values.isEmpty()) {
            return raw;
        }
        ObjectNode filled = filled(raw);
        return filled == null ? raw : JSON.treeToValue(filled, ExperimentSpec.class);
    }

    /** True when {@link #apply} changes this experiment (some overridden knob's value is left out by it). */
    public boolean changes(ExperimentSpec raw) {
        return !values.isEmpty() && filled(raw) != null;
    }

    /** The experiment as a tree with the knobs filled in, or null when none was left out. */
    private ObjectNode filled(ExperimentSpec raw) {
        ObjectNode root = (ObjectNode) JSON.valueToTree(raw);
        boolean changed = false;
        for (Map.Entry<Knob, Double> e : values.entrySet()) {
            changed |= fill(root, e.getKey(), e.getValue());
        }
        return changed ? root : null;
    }

    private static boolean fill(ObjectNode root, Knob knob, double value) {
        return switch (knob.where()) {
            case COSTS -> putIfAbsent(object(root, "costs"), knob, value);
            case NODE_BANDWIDTH -> fillNodes(object(root, "host"), knob, value);
            case SCHEDULER -> root.path("scheduler").isObject()
                    && knob.owner().equals(root.path("scheduler").path("policy").asString(""))
                    && putIfAbsent(object((ObjectNode) root.get("scheduler"), "params"), knob, value);
            case WORKLOAD -> fillWorkloads(root, knob, value);
        };
    }

    /** Every node gets the bandwidth it does not give; a host without nodes gets one per socket, as the normalizer makes. */
    private static boolean fillNodes(ObjectNode host, Knob knob, double value) {
        JsonNode nodes = host.path("numaNodes");
        if (!nodes.isArray() || nodes.isEmpty()) {
            int sockets = host.path("sockets").isNumber() ? host.path("sockets").asInt() : 1;
            ArrayNode made = host.putArray("numaNodes");
            for (int s = 0; s < sockets; s++) {
                made.addObject().put(knob.parameter(), value).putArray("sockets").add(s);
            }
            return true;
        }
        boolean changed = false;
        for (JsonNode node : nodes) {
            changed |= putIfAbsent((ObjectNode) node, knob, value);
        }
        return changed;
    }

    /** Every object under a field named {@code workload} whose type is the knob's owner, anywhere in the experiment. */
    private static boolean fillWorkloads(JsonNode node, Knob knob, double value) {
        boolean changed = false;
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                JsonNode child = field.getValue();
                if (field.getKey().equals("workload") && child.isObject()
                        && knob.owner().equals(child.path("type").asString(""))) {
                    changed |= putIfAbsent(object((ObjectNode) child, "params"), knob, value);
                } else {
                    changed |= fillWorkloads(child, knob, value);
                }
            }
        } else if (node.isArray()) {
            for (JsonNode child : node) {
                changed |= fillWorkloads(child, knob, value);
            }
        }
        return changed;
    }

    private static ObjectNode object(ObjectNode parent, String field) {
        JsonNode n = parent.get(field);
        return n != null && n.isObject() ? (ObjectNode) n : parent.putObject(field);
    }

    private static boolean putIfAbsent(ObjectNode target, Knob knob, double value) {
        JsonNode given = target.get(knob.parameter());
        if (given != null && !given.isNull()) {
            return false;
        }
        if (knob.integral()) {
            target.put(knob.parameter(), Math.round(value));
        } else {
            target.put(knob.parameter(), value);
        }
        return true;
    }

    @Override
    public String toString() {
        return values.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s=%s", e.getKey().name(), format(e.getKey(), e.getValue())))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    /** A knob value as the command line and the report print it. */
    public static String format(Knob knob, double value) {
        return knob.integral() ? Long.toString(Math.round(value)) : String.format(Locale.ROOT, "%.4g", value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KnobSet other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }
}

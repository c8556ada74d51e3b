package io.schedlab.engine.spec;

import io.schedlab.engine.params.ParameterSpec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Checks a parameter map against its {@link ParameterSpec}s (unknown names, types, bounds) and
 * fills defaults. Normalized values: INTEGER as Long, NUMBER as Double, INTEGER_LIST as List of Long, JSON as
 * given (a Map or a String), in the order the specs are declared.
 */
public final class ParameterValues {
    /** Longest string parameter accepted (e.g. an inline trace CSV). */
    public static final int MAX_STRING_LENGTH = 1_000_000;
    /** Longest integer-list parameter accepted. */
    public static final int MAX_LIST_SIZE = 100_000;

    private ParameterValues() {
    }

    /** Adds a violation under {@code pointer} for every bad entry of {@code given} (null = none given). */
    public static void check(String pointer, Map<String, Object> given, List<ParameterSpec> specs,
            List<Violation> out) {
        if (given == null) {
            return;
        }
        for (Map.Entry<String, Object> e : given.entrySet()) {
            String name = e.getKey();
            String at = pointer + "/" + escape(name);
            ParameterSpec spec = find(specs, name);
            if (spec == null) {
                out.add(new Violation(at, "unknown parameter '" + name + "'; known: "
                        + specs.stream().map(ParameterSpec::name).collect(Collectors.joining(", "))));
                continue;
            }
            String problem = problem(spec, e.getValue());
            if (problem != null) {
                out.add(new Violation(at, problem));
            }
        }
    }

    /** Every declared parameter, given value (converted) or default, in declaration order. Assumes {@link #check} passed. */
    public static Map<String, Object> normalize(Map<String, Object> given, List<ParameterSpec> specs) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (ParameterSpec spec : specs) {
            Object v = given == null ? null : given.get(spec.name());
            Object value = v != null ? v : spec.defaultValue();
            out.put(spec.name(), value == null ? null : convert(spec, value));
        }
        return out;
    }

    /** Only the given entries whose names {@code specs} declare, converted as {@link #normalize} does, in declaration order. */
    public static Map<String, Object> convertGiven(Map<String, Object> given, List<ParameterSpec> specs) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (ParameterSpec spec : specs) {
            Object v = given == null ? null : given.get(spec.name());
            if (v != null) {
                out.put(spec.name(), convert(spec, v));
            }
        }
        return out;
    }

    private static ParameterSpec find(List<ParameterSpec> specs, String name) {
        for (ParameterSpec s : specs) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    private static String problem(ParameterSpec spec, Object v) {
        if (v == null) {
            return "must not be null";
        }
        switch (spec.type()) {
            case INTEGER:
                if (!isIntegral(v)) {
                    return "must be an integer";
                }
                return bounds(spec, ((Number) v).doubleValue());
            case NUMBER:
                if (!(v instanceof Number) || !Double.isFinite(((Number) v).doubleValue())) {
                    return "must be a finite number";
                }
                return bounds(spec, ((Number) v).doubleValue());
            case BOOLEAN:
                return v instanceof Boolean ? null : "must be true or false";
            case STRING:
                if (!(v instanceof String)) {
                    return "must be a string";
                }
                int maxLength = spec.max() != null ? (int) Math.min(MAX_STRING_LENGTH, spec.max()) : MAX_STRING_LENGTH;
                return ((String) v).length() > maxLength ? "longer than " + maxLength + " characters" : null;
            case JSON:
                if (v instanceof Map<?, ?>) {
                    return null;
                }
                if (!(v instanceof String)) {
                    return "must be a JSON object or a string holding one";
                }
                int maxJson = spec.max() != null ? (int) Math.min(MAX_STRING_LENGTH, spec.max()) : MAX_STRING_LENGTH;
                return ((String) v).length() > maxJson ? "longer than " + maxJson + " characters" : null;
            case ENUM:
                return v instanceof String && spec.allowedValues().contains(v) ? null
                        : "must be one of " + String.join(", ", spec.allowedValues());
            case INTEGER_LIST:
                if (!(v instanceof List<?> list)) {
                    return "must be a list of integers";
                }
                if (list.size() > MAX_LIST_SIZE) {
                    return "more than " + MAX_LIST_SIZE + " entries";
                }
                for (int i = 0; i < list.size(); i++) {
                    Object item = list.get(i);
                    if (item == null || !isIntegral(item)) {
                        return "entry " + i + " must be an integer";
                    }
                    String b = bounds(spec, ((Number) item).doubleValue());
                    if (b != null) {
                        return "entry " + i + " " + b;
                    }
                }
                return null;
            default:
                return "unsupported parameter type";
        }
    }

    private static String bounds(ParameterSpec spec, double v) {
        if (spec.min() != null && v < spec.min()) {
            return "must be >= " + fmt(spec.min());
        }
        if (spec.max() != null && v > spec.max()) {
            return "must be <= " + fmt(spec.max());
        }
        return null;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    static boolean isIntegral(Object v) {
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return true;
        }
        if (v instanceof BigInteger b) {
            return b.bitLength() < 63;
        }
        if (v instanceof BigDecimal b) {
            try {
                b.longValueExact();
                return true;
            } catch (ArithmeticException e) {
                return false;
            }
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            return Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < 9e15;
        }
        return false;
    }

    private static Object convert(ParameterSpec spec, Object v) {
        switch (spec.type()) {
            case INTEGER:
                return ((Number) v).longValue();
            case NUMBER:
                return ((Number) v).doubleValue();
            case INTEGER_LIST: {
                List<Long> out = new ArrayList<>();
                for (Object o : (List<?>) v) {
                    out.add(((Number) o).longValue());
                }
                return List.copyOf(out);
            }
            default:
                return v;
        }
    }

    /** RFC 6901 escaping of one reference token. */
    static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}

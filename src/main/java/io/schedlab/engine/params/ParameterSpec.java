package io.schedlab.engine.params;

import java.util.List;

/**
 * One parameter of a policy, workload or cost model: type, default, bounds (inclusive; for STRING the
 * length in characters), allowed values for enums, unit, a one-line description and the source of its default.
 */
public record ParameterSpec(String name, Type type, Object defaultValue, Double min, Double max,
        List<String> allowedValues, String unit, String description, String source) {

    /** Parameter value types as they appear in JSON. */
    public enum Type { INTEGER, NUMBER, BOOLEAN, STRING, ENUM, INTEGER_LIST, JSON }

    public static ParameterSpec integer(String name, long def, long min, long max, String unit, String description,
            String source) {
        return new ParameterSpec(name, Type.INTEGER, def, (double) min, (double) max, null, unit, description, source);
    }

    public static ParameterSpec number(String name, double def, double min, double max, String unit,
            String description, String source) {
        return new ParameterSpec(name, Type.NUMBER, def, min, max, null, unit, description, source);
    }

    public static ParameterSpec bool(String name, boolean def, String description, String source) {
        return new ParameterSpec(name, Type.BOOLEAN, def, null, null, null, null, description, source);
    }

    /**
     * A free-text parameter (e.g. inline CSV). For {@link Type#STRING} the bounds {@code min}/{@code max}
     * are the allowed length in characters, so every user-controlled size has a limit.
     */
    public static ParameterSpec text(String name, String def, int maxLength, String unit, String description,
            String source) {
        return new ParameterSpec(name, Type.STRING, def, 0.0, (double) maxLength, null, unit, description, source);
    }

    /**
     * An embedded JSON document: an object, or a string holding one. {@code maxLength} bounds the string's
     * length in characters here; the workload bounds an object's serialized size itself.
     */
    public static ParameterSpec json(String name, String def, int maxLength, String unit, String description,
            String source) {
        return new ParameterSpec(name, Type.JSON, def, 0.0, (double) maxLength, null, unit, description, source);
    }

    public static ParameterSpec choice(String name, String def, List<String> values, String description,
            String source) {
        return new ParameterSpec(name, Type.ENUM, def, null, null, values, null, description, source);
    }
}

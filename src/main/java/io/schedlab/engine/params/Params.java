package io.schedlab.engine.params;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Normalized parameter values (every default filled in, already validated), with typed getters. */
public final class Params {
    private final Map<String, Object> values;

    public Params(Map<String, Object> values) {
        this.values = Collections.unmodifiableMap(new TreeMap<>(values));
    }

    public Map<String, Object> asMap() {
        return values;
    }

    public long getLong(String name) {
        return ((Number) require(name)).longValue();
    }

    public int getInt(String name) {
        return ((Number) require(name)).intValue();
    }

    public double getDouble(String name) {
        return ((Number) require(name)).doubleValue();
    }

    public boolean getBoolean(String name) {
        return (Boolean) require(name);
    }

    public String getString(String name) {
        return String.valueOf(require(name));
    }

    @SuppressWarnings("unchecked")
    public List<Integer> getIntList(String name) {
        Object v = values.get(name);
        return v == null ? List.of() : ((List<Number>) v).stream().map(Number::intValue).toList();
    }

    private Object require(String name) {
        Object v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("parameter '" + name + "' not set");
        }
        return v;
    }
}

package io.schedlab.experiments.persistence;

import java.util.Map;
import java.util.TreeMap;

/**
 * Canonical JSON text for labels: keys sorted, no whitespace, JSON string escaping. Because an
 * unescaped quote only appears at string boundaries, {@code "k":"v"} occurs in the text exactly
 * when label k has value v, so a LIKE on that fragment filters by label on any database.
 */
public final class LabelsJson {
    private LabelsJson() {
    }

    /** Canonical JSON object of the labels. */
    public static String write(Map<String, String> labels) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append(fragment(e.getKey(), e.getValue()));
        }
        return sb.append('}').toString();
    }

    /** The text of one label inside the canonical object. */
    public static String fragment(String key, String value) {
        return quote(key) + ":" + quote(value);
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}

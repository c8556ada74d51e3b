package io.schedlab.packaging;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Extracts the metric names a PromQL expression selects. Enough of PromQL for dashboards:
 * string literals, label matchers, range/offset brackets and grouping clauses are removed,
 * then every identifier that is not a function call, a keyword or part of a number is a metric.
 */
final class PromQlMetricNames {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern LABEL_MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.$])[A-Za-z_:][\\w:]*+(?!\\s*\\()");
    private static final Set<String> KEYWORDS = Set.of(
            "by", "without", "on", "ignoring", "group_left", "group_right", "offset", "bool",
            "and", "or", "unless", "atan2", "inf", "nan", "Inf", "NaN");

    private PromQlMetricNames() {
    }

    static Set<String> of(String expression) {
        String stripped = STRING.matcher(expression).replaceAll("\"\"");
        stripped = LABEL_MATCHERS.matcher(stripped).replaceAll(" ");
        stripped = RANGE.matcher(stripped).replaceAll(" ");
        stripped = GROUPING.matcher(stripped).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher matcher = IDENTIFIER.matcher(stripped);
        while (matcher.find()) {
            String identifier = matcher.group();
            if (!KEYWORDS.contains(identifier)) {
                names.add(identifier);
            }
        }
        return names;
    }
}

package io.schedlab.packaging;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The PromQL the provisioned Grafana dashboard runs: panel expressions and template-variable queries. */
final class DashboardQueries {

    static final String DASHBOARD = "docker/grafana/dashboards/schedlab.json";
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([A-Za-z_:][A-Za-z0-9_:]*)\\s*,");

    private DashboardQueries() {
    }

    static JsonNode dashboard() {
        return JsonMapper.builder().build().readTree(RepoFiles.read(DASHBOARD));
    }

    /** Every panel target's {@code expr}, in dashboard order. */
    static List<String> expressions() {
        List<String> expressions = new ArrayList<>();
        for (JsonNode panel : dashboard().get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                expressions.add(target.get("expr").asString());
            }
        }
        return expressions;
    }

    /** Every metric name the dashboard reads, from panels and from {@code label_values(metric, label)} variables. */
    static Set<String> metricNames() {
        Set<String> names = new TreeSet<>();
        expressions().forEach(e -> names.addAll(PromQlMetricNames.of(e)));
        JsonNode variables = dashboard().path("templating").path("list");
        for (JsonNode variable : variables) {
            Matcher matcher = LABEL_VALUES.matcher(variable.path("definition").asString(""));
            if (matcher.find()) {
                names.add(matcher.group(1));
            }
        }
        return names;
    }

    /** An expression as Prometheus itself accepts it: Grafana's variables replaced by concrete values. */
    static String forPrometheus(String expression) {
        return expression.replace("$__rate_interval", "1m").replace("$policy", ".*");
    }
}

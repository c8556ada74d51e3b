package io.schedlab.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** README's configuration table documents every setting the application reads, and nothing it does not. */
class ReadmeConfigurationTableTest {

    private static final Pattern DEFAULT_ROW = Pattern.compile(
            "(?m)^\\| `([a-z0-9.-]+)`(?: \\(`[A-Z0-9_]+`\\))? \\| `([^`]*)` \\|");
    private static final Pattern PLACEHOLDER_DEFAULT = Pattern.compile("\\$\\{[A-Za-z0-9_.-]+:(.*)}");
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([a-z0-9.-]+)`(?: \\(`([A-Z0-9_]+)`\\))? \\|");

    @Test
    void everySchedLabPropertyAndEnvironmentVariableIsInTheTable() {
        KnownSettings settings = KnownSettings.load();
        Set<String> documented = documentedProperties();

        Set<String> undocumented = new TreeSet<>();
        for (String property : settings.propertyNames()) {
            if (property.startsWith("schedlab.") && !documented.contains(property)) {
                undocumented.add(property);
            }
        }
        assertThat(undocumented).as("schedlab.* properties missing from README's configuration table").isEmpty();

        Set<String> documentedEnvironment = documentedEnvironmentVariables();
        for (String variable : List.of("SCHEDLAB_DB_URL", "SCHEDLAB_DB_USER", "SCHEDLAB_DB_PASSWORD", "SCHEDLAB_PORT",
                "SCHEDLAB_JOBS_WORKERS")) {
            assertThat(documentedEnvironment).contains(variable);
        }
    }

    @Test
    void everyDocumentedPropertyIsReadByTheApplication() {
        KnownSettings settings = KnownSettings.load();
        for (String property : documentedProperties()) {
            assertThat(settings.propertyNames()).as("README documents " + property).contains(property);
        }
        for (String variable : documentedEnvironmentVariables()) {
            assertThat(settings.readsEnvironmentVariable(variable)).as("README documents " + variable).isTrue();
        }
    }

    @Test
    void documentedDefaultsMatchApplicationYml() {
        Map<String, String> values = new TreeMap<>();
        RepoFiles.yamlDocuments("src/main/resources/application.yml").forEach(d -> flatten("", d, values));
        Matcher row = DEFAULT_ROW.matcher(configurationSection());
        int compared = 0;
        while (row.find()) {
            String value = values.get(row.group(1));
            if (value == null) {
                continue;
            }
            Matcher placeholder = PLACEHOLDER_DEFAULT.matcher(value);
            String expected = placeholder.matches() ? placeholder.group(1) : value;
            if (!expected.isEmpty()) {
                assertThat(row.group(2)).as("README default of " + row.group(1)).isEqualTo(expected);
                compared++;
            }
        }
        assertThat(compared).isGreaterThanOrEqualTo(20);
    }

    private static void flatten(String prefix, Map<String, Object> node, Map<String, String> out) {
        for (Map.Entry<String, Object> entry : node.entrySet()) {
            String key = prefix.isEmpty() ? entry.getKey() : prefix + "." + entry.getKey();
            if (entry.getValue() instanceof Map<?, ?> child) {
                flatten(key, RepoFiles.map(child), out);
            } else {
                out.put(key, String.valueOf(entry.getValue()));
            }
        }
    }

    private static Set<String> documentedProperties() {
        Set<String> properties = new TreeSet<>();
        Matcher matcher = ROW.matcher(configurationSection());
        while (matcher.find()) {
            properties.add(matcher.group(1));
        }
        return properties;
    }

    private static Set<String> documentedEnvironmentVariables() {
        Set<String> variables = new TreeSet<>();
        Matcher matcher = ROW.matcher(configurationSection());
        while (matcher.find()) {
            if (matcher.group(2) != null) {
                variables.add(matcher.group(2));
            }
        }
        return variables;
    }

    private static String configurationSection() {
        String readme = RepoFiles.read("README.md");
        int start = readme.indexOf("\n## Configuration");
        assertThat(start).as("README has a Configuration section").isPositive();
        int end = readme.indexOf("\n## ", start + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }
}

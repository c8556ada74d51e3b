package io.schedlab.packaging;

import java.beans.Introspector;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * The settings the application really reads: keys of {@code application.yml}, the environment
 * variables it names in {@code ${...}} placeholders, and every property of SchedLab's
 * {@code @ConfigurationProperties} types. Environment names use Spring Boot's relaxed binding
 * for environment variables (dots to underscores, dashes removed, upper case).
 */
final class KnownSettings {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_.-]+)(?::[^}]*)?}");

    private final Set<String> propertyNames = new TreeSet<>();
    private final Set<String> placeholderNames = new TreeSet<>();

    static KnownSettings load() {
        KnownSettings settings = new KnownSettings();
        String applicationYml = RepoFiles.read("src/main/resources/application.yml");
        RepoFiles.yamlDocuments("src/main/resources/application.yml").forEach(d -> settings.addYamlKeys("", d));
        Matcher matcher = PLACEHOLDER.matcher(applicationYml);
        while (matcher.find()) {
            settings.placeholderNames.add(matcher.group(1));
        }
        settings.addConfigurationPropertiesTypes();
        return settings;
    }

    /** Spring Boot's environment-variable form of a canonical property name. */
    static String environmentName(String property) {
        return property.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
    }

    /** True when the application reads this environment variable, directly or by relaxed binding. */
    boolean readsEnvironmentVariable(String name) {
        return placeholderNames.contains(name)
                || propertyNames.stream().anyMatch(p -> environmentName(p).equals(name));
    }

    Set<String> propertyNames() {
        return propertyNames;
    }

    Set<String> placeholderNames() {
        return placeholderNames;
    }

    private void addYamlKeys(String prefix, Map<String, Object> node) {
        for (Map.Entry<String, Object> entry : node.entrySet()) {
            String key = prefix.isEmpty() ? entry.getKey() : prefix + "." + entry.getKey();
            if (entry.getValue() instanceof Map<?, ?> child) {
                addYamlKeys(key, RepoFiles.map(child));
            } else {
                propertyNames.add(key);
            }
        }
    }

    private void addConfigurationPropertiesTypes() {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
        for (BeanDefinition candidate : scanner.findCandidateComponents("io.schedlab")) {
            Class<?> type = ClassUtils.resolveClassName(candidate.getBeanClassName(), getClass().getClassLoader());
            ConfigurationProperties annotation = type.getAnnotation(ConfigurationProperties.class);
            String prefix = annotation.prefix().isEmpty() ? annotation.value() : annotation.prefix();
            addTypeProperties(prefix, type, 0);
        }
    }

    private void addTypeProperties(String prefix, Class<?> type, int depth) {
        if (type.isRecord()) {
            for (RecordComponent component : type.getRecordComponents()) {
                addProperty(prefix, component.getName(), component.getType(), depth);
            }
            return;
        }
        for (Field field : type.getDeclaredFields()) {
            if (!Modifier.isStatic(field.getModifiers())) {
                addProperty(prefix, field.getName(), field.getType(), depth);
            }
        }
    }

    private void addProperty(String prefix, String javaName, Class<?> type, int depth) {
        String name = prefix + "." + kebab(javaName);
        propertyNames.add(name);
        boolean nestedSchedLabType = type.getName().startsWith("io.schedlab.") && !type.isEnum();
        if (nestedSchedLabType && depth < 4) {
            addTypeProperties(name, type, depth + 1);
        }
    }

    private static String kebab(String camel) {
        return Introspector.decapitalize(camel).replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}

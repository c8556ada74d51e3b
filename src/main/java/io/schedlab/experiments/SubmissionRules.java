package io.schedlab.experiments;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.SpecValidator;
import io.schedlab.engine.spec.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Service-side rules on top of the engine's validation of the name and labels (lengths and
 * counts are the engine's, see SpecValidator): label keys must be usable in list filters
 * ({@code label=key:value}), and the name and label values free of control characters.
 */
public final class SubmissionRules {
    public static final int MAX_NAME_LENGTH = SpecValidator.MAX_NAME_LENGTH;
    public static final int MAX_LABEL_KEY_LENGTH = 63;
    public static final int MAX_LABEL_VALUE_LENGTH = SpecValidator.MAX_LABEL_LENGTH;
    /** Keys like Kubernetes label keys; no ':' because list filters are written {@code label=key:value}. */
    public static final Pattern LABEL_KEY = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._/-]*[A-Za-z0-9])?");

    private SubmissionRules() {
    }

    /** Violations of the label rules (empty when fine). */
    public static List<Violation> check(ExperimentSpec spec) {
        List<Violation> out = new ArrayList<>();
        if (spec.name() != null && spec.name().chars().anyMatch(Character::isISOControl)) {
            out.add(new Violation("/name", "the name must not contain control characters"));
        }
        Map<String, String> labels = spec.labels();
        if (labels == null || labels.size() > SpecValidator.MAX_LABELS) {
            return out; // the engine reports the count
        }
        for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
            String pointer = "/labels/" + e.getKey().replace("~", "~0").replace("/", "~1");
            if (e.getKey().length() > MAX_LABEL_KEY_LENGTH || !LABEL_KEY.matcher(e.getKey()).matches()) {
                out.add(new Violation(pointer, "label keys are 1-" + MAX_LABEL_KEY_LENGTH
                        + " characters of letters, digits, '.', '_', '/', '-', starting and ending with a letter or digit"));
            } else if (e.getValue() != null && e.getValue().chars().anyMatch(Character::isISOControl)) {
                out.add(new Violation(pointer, "label values must not contain control characters"));
            }
        }
        return out;
    }

    /** Both lists, without an engine violation for a pointer the service rules already reported. */
    public static List<Violation> merge(List<Violation> service, List<Violation> engine) {
        List<Violation> out = new ArrayList<>(service);
        java.util.Set<String> seen = new java.util.HashSet<>();
        service.forEach(v -> seen.add(v.pointer()));
        engine.stream().filter(v -> !seen.contains(v.pointer())).forEach(out::add);
        return out;
    }
}

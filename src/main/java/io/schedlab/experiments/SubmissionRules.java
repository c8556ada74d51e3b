package io.schedlab.experiments;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Service-side bounds on the fields the engine does not interpret: the experiment name and its
 * labels (count, key syntax, lengths), so every list a client controls is bounded.
 */
public final class SubmissionRules {
    public static final int MAX_NAME_LENGTH = 200;
    public static final int MAX_LABELS = 32;
    public static final int MAX_LABEL_KEY_LENGTH = 63;
    public static final int MAX_LABEL_VALUE_LENGTH = 256;
    /** Keys like Kubernetes label keys; no ':' because list filters are written {@code label=key:value}. */
    public static final Pattern LABEL_KEY = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._/-]*[A-Za-z0-9])?");

    private SubmissionRules() {
    }

    /** Violations of the name and label rules (empty when fine). */
    public static List<Violation> check(ExperimentSpec spec) {
        List<Violation> out = new ArrayList<>();
        if (spec.name() != null && spec.name().length() > MAX_NAME_LENGTH) {
            out.add(new Violation("/name", "at most " + MAX_NAME_LENGTH + " characters"));
        }
        Map<String, String> labels = spec.labels();
        if (labels == null) {
            return out;
        }
        if (labels.size() > MAX_LABELS) {
            out.add(new Violation("/labels", "at most " + MAX_LABELS + " labels, got " + labels.size()));
            return out;
        }
        for (Map.Entry<String, String> e : labels.entrySet()) {
            String pointer = "/labels/" + e.getKey().replace("~", "~0").replace("/", "~1");
            if (e.getKey().length() > MAX_LABEL_KEY_LENGTH || !LABEL_KEY.matcher(e.getKey()).matches()) {
                out.add(new Violation(pointer, "label keys are 1-" + MAX_LABEL_KEY_LENGTH
                        + " characters of letters, digits, '.', '_', '/', '-', starting and ending with a letter or digit"));
            }
            if (e.getValue() == null) {
                out.add(new Violation(pointer, "label values must be strings"));
            } else if (e.getValue().length() > MAX_LABEL_VALUE_LENGTH
                    || e.getValue().chars().anyMatch(Character::isISOControl)) {
                out.add(new Violation(pointer, "label values are at most " + MAX_LABEL_VALUE_LENGTH
                        + " characters without control characters"));
            }
        }
        return out;
    }
}

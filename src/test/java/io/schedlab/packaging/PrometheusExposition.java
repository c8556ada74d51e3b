package io.schedlab.packaging;

import java.util.Set;
import java.util.TreeSet;

/** Reads the Prometheus text exposition format the application serves. */
final class PrometheusExposition {

    private PrometheusExposition() {
    }

    /** Names of every sample line (e.g. {@code schedlab_run_seconds_bucket}), comments skipped. */
    static Set<String> sampleNames(String exposition) {
        Set<String> names = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                end++;
            }
            names.add(line.substring(0, end));
        }
        return names;
    }
}

package io.schedlab.engine.catalogue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The published numbers of the experiments (test resource {@code published/seed-posts.json}, taken from the posts). */
final class PublishedNumbers {
    private static final JsonNode ROOT = load();

    private PublishedNumbers() {
    }

    private static JsonNode load() {
        try (InputStream in = PublishedNumbers.class.getResourceAsStream("/published/seed-posts.json")) {
            if (in == null) {
                throw new IllegalStateException("test resource published/seed-posts.json is missing");
            }
            return JsonMapper.builder().build().readTree(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Seed 001: seconds per VM while VM1 and VM3 share pCPU 1. */
    static double e2SharedSeconds() {
        return ROOT.path("E2").path("sharedSeconds").asDouble();
    }

    /** Seed 001: seconds per VM after xm vcpu-pin VM1 0 0. */
    static double e2PinnedSeconds() {
        return ROOT.path("E2").path("pinnedSeconds").asDouble();
    }

    /** Seed 001: xm vcpu-list CPU seconds of a vCPU over the shared run. */
    static double e2CpuSeconds(String vcpu) {
        JsonNode v = ROOT.path("E2").path("vcpuListCpuSecondsWhileShared").path(vcpu);
        if (!v.isNumber()) {
            throw new IllegalArgumentException("no published E2 CPU time for " + vcpu);
        }
        return v.asDouble();
    }

    /** Seed 004: the make -j N values. */
    static List<Integer> e5N() {
        return ROOT.path("E5").path("n").valueStream().map(JsonNode::asInt).toList();
    }

    /** Seed 004: seconds for a guest of {@code vcpus} (4 or 8) under {@code column}, one per N. */
    static double[] e5Seconds(int vcpus, String column) {
        JsonNode values = ROOT.path("E5").path("vcpus" + vcpus).path(column);
        if (!values.isArray() || values.isEmpty()) {
            throw new IllegalArgumentException("no published E5 column " + column + " for " + vcpus + " vCPUs");
        }
        return values.valueStream().mapToDouble(JsonNode::asDouble).toArray();
    }
}

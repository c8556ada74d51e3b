package io.schedlab.engine.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the Trace Event Format requires of a file (Google's "Trace Event Format" document: the object form
 * with {@code traceEvents}; {@code name, cat, ph, ts, pid, tid} on every event; {@code dur} on complete
 * events; {@code args} on counter and metadata events; flow starts and ends paired by {@code id}), plus
 * this exporter's own promises: slices on one pCPU track never overlap and every flow end lies inside a
 * slice of its track. Numbers are read as exact decimals.
 */
public final class PerfettoChecks {
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

    /** One complete event ("X"). */
    public record Slice(int tid, BigDecimal ts, BigDecimal dur, String vm, int vcpu) {
        public Slice {
            ts = ts.stripTrailingZeros(); // 1.5 and 1.500 are one time
            dur = dur.stripTrailingZeros();
        }

        BigDecimal end() {
            return ts.add(dur);
        }
    }

    /** What a valid file holds. */
    public record Contents(List<Slice> slices, int flows, int counters, JsonNode root) {
    }

    private PerfettoChecks() {
    }

    public static Contents check(byte[] json) {
        JsonNode root = JSON.readTree(json);
        assertThat(root.isObject()).as("the JSON object form").isTrue();
        assertThat(root.path("displayTimeUnit").asString()).isEqualTo("ns");
        JsonNode events = root.path("traceEvents");
        assertThat(events.isArray()).as("traceEvents array").isTrue();
        List<Slice> slices = new ArrayList<>();
        Map<Long, JsonNode> starts = new HashMap<>();
        Map<Long, JsonNode> ends = new HashMap<>();
        int counters = 0;
        for (JsonNode e : events) {
            String at = e.toString();
            for (String field : List.of("name", "cat", "ph")) {
                assertThat(e.path(field).isString()).as(field + " of " + at).isTrue();
                assertThat(e.path(field).asString()).as(field + " of " + at).isNotEmpty();
            }
            assertThat(e.path("ts").isNumber()).as("ts of " + at).isTrue();
            assertThat(e.path("ts").decimalValue()).as("ts of " + at).isNotNegative();
            assertThat(e.path("pid").isIntegralNumber()).as("pid of " + at).isTrue();
            assertThat(e.path("tid").isIntegralNumber()).as("tid of " + at).isTrue();
            switch (e.path("ph").asString()) {
                case "X" -> {
                    assertThat(e.path("dur").isNumber()).as("dur of " + at).isTrue();
                    assertThat(e.path("dur").decimalValue()).as("dur of " + at).isNotNegative();
                    slices.add(new Slice(e.path("tid").asInt(), e.path("ts").decimalValue(), e.path("dur").decimalValue(),
                            e.path("args").path("vm").asString(), e.path("args").path("vcpu").asInt()));
                }
                case "C" -> {
                    assertThat(e.path("args").isObject() && !e.path("args").isEmpty()).as("args of " + at).isTrue();
                    e.path("args").values().forEach(v -> {
                        assertThat(v.isNumber()).as("counter value of " + at).isTrue();
                        assertThat(v.decimalValue()).as("run-queue length of " + at).isNotNegative();
                    });
                    counters++;
                }
                case "M" -> assertThat(e.path("args").isObject() && !e.path("args").isEmpty()).as("args of " + at).isTrue();
                case "s" -> {
                    assertThat(e.path("id").isIntegralNumber()).as("id of " + at).isTrue();
                    assertThat(starts.put(e.path("id").asLong(), e)).as("one start per flow id: " + at).isNull();
                }
                case "f" -> {
                    assertThat(e.path("id").isIntegralNumber()).as("id of " + at).isTrue();
                    assertThat(e.path("bp").asString()).as("binds to the enclosing slice: " + at).isEqualTo("e");
                    assertThat(ends.put(e.path("id").asLong(), e)).as("one end per flow id: " + at).isNull();
                }
                default -> throw new AssertionError("unexpected phase in " + at);
            }
        }
        assertThat(ends.keySet()).as("every flow start has an end and every end a start").isEqualTo(starts.keySet());

        Map<Integer, List<Slice>> byTrack = new TreeMap<>();
        slices.forEach(s -> byTrack.computeIfAbsent(s.tid(), k -> new ArrayList<>()).add(s));
        for (List<Slice> track : byTrack.values()) {
            track.sort((a, b) -> a.ts().compareTo(b.ts()));
            for (int i = 1; i < track.size(); i++) {
                assertThat(track.get(i).ts()).as("slices on a track never overlap: %s then %s", track.get(i - 1), track.get(i))
                        .isGreaterThanOrEqualTo(track.get(i - 1).end());
            }
        }
        Set<Long> ids = new HashSet<>(starts.keySet());
        for (long id : ids) {
            for (JsonNode flow : List.of(starts.get(id), ends.get(id))) {
                int tid = flow.path("tid").asInt();
                BigDecimal ts = flow.path("ts").decimalValue();
                assertThat(byTrack.getOrDefault(tid, List.of()))
                        .as("flow event inside a slice of its track: " + flow)
                        .anyMatch(s -> s.ts().compareTo(ts) <= 0 && s.end().compareTo(ts) >= 0
                                && flow.path("name").asString().endsWith(s.vm() + " vCPU " + s.vcpu()));
            }
        }
        return new Contents(slices, starts.size(), counters, root);
    }

    /** Nanoseconds as the exact microseconds the file holds. */
    public static BigDecimal micros(long nanos) {
        return BigDecimal.valueOf(nanos, 3);
    }
}

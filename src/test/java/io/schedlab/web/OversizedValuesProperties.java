package io.schedlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.SchedLabApplication;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every size a user controls, oversized, in every body the API takes: each numeric
 * field of an experiment (submitted and validated), a sweep and a scenario run's overrides gets
 * huge, negative, 64-bit, fractional and out-of-double-range values; each list is grown to fill
 * the body limit; each string becomes 100,000 characters. Sent over a raw socket to the real
 * service (embedded Tomcat, H2, workers off), every mutation is answered below 500, a refusal is
 * application/problem+json naming a pointer at or around the field and comes within 1 s, and
 * oversized numbers are refused except in the fields that take any value by design. Afterwards the
 * used heap, after a collection, has not grown by more than {@link #HEAP_GROWTH_BOUND}.
 */
class OversizedValuesProperties {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Numbers no size may take; they are refused wherever a field is bounded. */
    private static final List<String> OVERSIZED = List.of("2147483647", "2147483648", "-2147483648",
            "9223372036854775807", "1e300", "1e309");
    /**
     * Large, small, odd or fractional numbers: within some fields' ranges (50,000,000 MB of memory,
     * 1.5 s), or refused for what they do to another field (a shorter duration leaves a timeline
     * action after the end); never a server error, and a refusal within the second.
     */
    private static final List<String> ODD = List.of("50000000", "-1", "1.5");
    /** The only subtree an untabled sweep adds: its levels reach the children (the rest is the sweep's). */
    private static final String UNTABLED_WALK = "/axes";
    /**
     * Fields that take any number by design: seeds (any 64-bit value is a seed), a published
     * number and a metric's scale (any finite one); and in a sweep's base the seed and the values
     * the template's axes set (each child's replaces them). An oversized number there may be
     * accepted; it must still never be a 5xx.
     */
    private static final Set<String> UNBOUNDED = Set.of("/seed", "/seeds/*", "/published/cells/*/value",
            "/metrics/*/scale", "/base/seed", "/base/vms/*/vcpus", "/base/scheduler/params/tsliceMs");
    /** Where a sweep names the levels of its axes: a changed level is refused there first. */
    private static final List<String> LEVEL_REFERENCES = List.of("/baseline", "/published/cells");
    /** Refusals are answered within this; the sizes are checked before anything is expanded. */
    private static final long MAX_REFUSAL_MILLIS = 1000;
    /** Used heap after a collection may grow this much over the whole run (stored rows included). */
    private static final long HEAP_GROWTH_BOUND = 64L << 20;
    private static final int BODY_LIMIT = 1 << 20;

    private static final Map<String, AtomicInteger> OUTCOMES = new ConcurrentHashMap<>();
    private static final AtomicLong SLOWEST_REFUSAL = new AtomicLong();
    private static ConfigurableApplicationContext app;
    private static int port;
    private static List<Mutation> mutations;
    private static long heapBefore;

    /**
     * A body the API takes, where it goes, the subtree walked ("" the whole body) and whether odd
     * values are sent too (submitting shares validation with validating: oversized ones suffice).
     */
    record Target(String name, String path, JsonNode template, String walk, boolean odd) {
        Target(String name, String path, JsonNode template) {
            this(name, path, template, "", true);
        }
    }

    /** One change of a template: a value at a pointer, or the array there grown to {@code copies} entries. */
    record Mutation(Target target, String pointer, String value, int copies) {
        @Override
        public String toString() {
            return target.name() + " " + pointer + (copies > 0 ? " x" + copies : " = " + abbreviate(value));
        }
    }

    @BeforeContainer
    static void start() throws Exception {
        app = SpringApplication.run(SchedLabApplication.class, "--server.port=0", "--schedlab.jobs.enabled=false",
                "--spring.datasource.url=jdbc:h2:mem:oversized-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                "--schedlab.data-dir=target/test-data/oversized", "--schedlab.jobs.max-queued=100000",
                "--logging.level.root=WARN");
        port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
        JsonNode experiment = template("experiment.json");
        JsonNode sweep = template("sweep.json");
        JsonNode overrides = template("scenario-run.json");
        ObjectNode untabled = (ObjectNode) sweep.deepCopy();
        untabled.remove(List.of("baseline", "published")); // so a changed level reaches the children
        List<Target> targets = List.of(
                new Target("experiment", "/api/v1/experiments", experiment, "", false),
                new Target("validate", "/api/v1/experiments:validate", experiment),
                new Target("sweep", "/api/v1/sweeps", sweep),
                new Target("untabled sweep", "/api/v1/sweeps", untabled, UNTABLED_WALK, true),
                new Target("E2 run", "/api/v1/scenarios/E2/runs", overrides),
                new Target("E5 run", "/api/v1/scenarios/E5/runs", overrides));
        for (Target t : targets) {
            RawHttp.Answer a = post(t.path(), JSON.writeValueAsBytes(t.template()));
            assertThat(a.status()).as(t.name() + " template is accepted as it is: " + a.body()).isBetween(200, 299);
        }
        mutations = new ArrayList<>();
        targets.forEach(t -> walk(t, t.template(), "", mutations));
        mutations.removeIf(m -> !m.pointer().startsWith(m.target().walk()));
        heapBefore = usedHeapAfterGc();
    }

    @AfterContainer
    static void stop() throws Exception {
        try {
            long growth = usedHeapAfterGc() - heapBefore;
            System.out.println("oversized values: " + mutations.size() + " mutations, answers " + new TreeMap<>(OUTCOMES)
                    + ", slowest refusal " + SLOWEST_REFUSAL.get() + " ms, heap growth " + (growth >> 10) + " KiB");
            assertThat(growth).as("used heap growth after GC, bytes").isLessThan(HEAP_GROWTH_BOUND);
        } finally {
            if (app != null) {
                app.close();
            }
        }
    }

    @Property(generation = GenerationMode.EXHAUSTIVE, tries = 20_000)
    void everyOversizedSizeIsRefusedWithinASecondNamingItsField(@ForAll("mutations") Mutation m) throws Exception {
        byte[] body = apply(m);
        long start = System.nanoTime();
        RawHttp.Answer a = post(m.target().path(), body);
        long millis = (System.nanoTime() - start) / 1_000_000;
        String what = m + " -> " + a.status() + " in " + millis + " ms: " + abbreviate(a.body());
        OUTCOMES.computeIfAbsent(m.target().name() + " " + a.status(), k -> new AtomicInteger()).incrementAndGet();
        assertThat(a.status()).as(what).isBetween(200, 499);
        if (a.status() >= 400) {
            SLOWEST_REFUSAL.accumulateAndGet(millis, Math::max);
            assertThat(millis).as(what).isLessThan(MAX_REFUSAL_MILLIS);
            assertThat(a.header("Content-Type")).as(what).startsWith("application/problem+json");
            JsonNode problem = JSON.readTree(a.body());
            assertThat(problem.path("type").asString()).as(what).startsWith(ProblemKind.BASE);
            if (a.status() == 400 || problem.has("errors")) {
                assertThat(problem.path("errors").findValues("pointer")).as(what).isNotEmpty();
            }
            if (oversized(m) && problem.has("errors")) {
                assertThat(namesTheField(problem.path("errors"), m.pointer())).as("names the field: " + what).isTrue();
            }
        } else {
            assertThat(oversized(m) && !unbounded(m.pointer())).as("accepted an oversized value: " + what).isFalse();
        }
    }

    @Provide
    Arbitrary<Mutation> mutations() {
        return Arbitraries.of(mutations);
    }

    /** Numeric leaves get every value, arrays are grown, strings made long. */
    private static void walk(Target t, JsonNode node, String pointer, List<Mutation> out) {
        if (node.isNumber()) {
            OVERSIZED.forEach(v -> out.add(new Mutation(t, pointer, v, 0)));
            if (t.odd()) {
                ODD.forEach(v -> out.add(new Mutation(t, pointer, v, 0)));
            }
        } else if (node.isString()) {
            out.add(new Mutation(t, pointer, JSON.writeValueAsString("x".repeat(100_000)), 0));
        } else if (node.isArray()) {
            if (!node.isEmpty()) {
                int element = node.get(0).toString().length() + 1;
                out.add(new Mutation(t, pointer, null, Math.min(200_000, (BODY_LIMIT - 64 * 1024) / element)));
            }
            for (int i = 0; i < node.size(); i++) {
                walk(t, node.get(i), pointer + "/" + i, out);
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                walk(t, e.getValue(), pointer + "/" + e.getKey().replace("~", "~0").replace("/", "~1"), out);
            }
        }
    }

    /** The template with the mutation applied, as the bytes sent (over the body limit never). */
    private static byte[] apply(Mutation m) {
        JsonNode copy = m.target().template().deepCopy();
        String parentPointer = m.pointer().substring(0, m.pointer().lastIndexOf('/'));
        String last = m.pointer().substring(m.pointer().lastIndexOf('/') + 1).replace("~1", "/").replace("~0", "~");
        JsonNode parent = parentPointer.isEmpty() ? copy : copy.at(parentPointer);
        JsonNode value;
        if (m.copies() > 0) {
            ArrayNode grown = JSON.createArrayNode();
            JsonNode first = (parent.isArray() ? parent.get(Integer.parseInt(last)) : parent.get(last)).get(0);
            for (int i = 0; i < m.copies(); i++) {
                grown.add(first);
            }
            value = grown;
        } else {
            value = JSON.readTree(m.value());
        }
        if (parent.isArray()) {
            ((ArrayNode) parent).set(Integer.parseInt(last), value);
        } else {
            ((ObjectNode) parent).set(last, value);
        }
        byte[] body = JSON.writeValueAsBytes(copy);
        assertThat(body.length).as(m + ": the body fits the body limit").isLessThanOrEqualTo(BODY_LIMIT);
        return body;
    }

    /**
     * An error's pointer is the field, one of its parents (a total over a list, the host for its
     * pCPUs), a child's copy of it (a sweep's cell), or for an axis's level where the sweep names it.
     */
    private static boolean namesTheField(JsonNode errors, String pointer) {
        if (!errors.isArray() || errors.isEmpty()) {
            return false;
        }
        for (JsonNode e : errors) {
            String p = e.path("pointer").asString("");
            boolean level = pointer.startsWith("/axes/") && LEVEL_REFERENCES.stream().anyMatch(p::startsWith);
            if (e.has("cell") || level || pointer.equals(p) || pointer.startsWith(p + "/") || p.startsWith(pointer + "/")) {
                return true;
            }
        }
        return false;
    }

    private static boolean oversized(Mutation m) {
        return m.copies() > 0 || (m.value() != null && OVERSIZED.contains(m.value()));
    }

    private static boolean unbounded(String pointer) {
        String general = pointer.replaceAll("/\\d+(?=/|$)", "/*");
        return UNBOUNDED.contains(general);
    }

    private static RawHttp.Answer post(String path, byte[] body) throws Exception {
        return RawHttp.send(port, "POST " + path + " HTTP/1.1\r\nContent-Type: application/json", body);
    }

    private static JsonNode template(String name) throws Exception {
        return JSON.readTree(Files.readString(Path.of("src/test/resources/bounds", name), StandardCharsets.UTF_8));
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        var memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static String abbreviate(String s) {
        return s == null || s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }
}

package io.schedlab.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Object-level authorization over every operation of openapi.yaml: bob submits an experiment, a
 * sweep and a scenario run (each with an Idempotency-Key); then alice, another submitter, calls
 * every operation the contract lists, with bob's ids in its path and bob's keys and bodies where it
 * submits. No answer to alice may name one of bob's ids; every operation on one of bob's objects is
 * 404 to her (and not to bob, so the id was a real one); her submissions with bob's Idempotency-Keys
 * create her own objects; and afterwards bob's objects are as he left them. An operation whose
 * path the walk cannot fill fails the test, so a new operation is walked as soon as it is added.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:ownership-walk;DB_CLOSE_DELAY=-1", "schedlab.jobs.enabled=false"})
class TwoKeysOwnershipWalkTest {

    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    /** The smallest scenario run the catalogue allows: one repetition, the shortest duration. */
    private static final String SCENARIO = "E2";
    private static final String SCENARIO_RUN = "{\"repetitions\": 1, \"durationSeconds\": 5}";

    @DynamicPropertySource
    static void keys(DynamicPropertyRegistry registry) throws Exception {
        KeyedClient.useKeysFile(registry, List.of("alice", "bob"));
    }

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void noOperationLetsOneSubmitterReachAnothersObjects() throws Exception {
        Bobs bobs = bobSubmitsOneOfEach();
        List<String> walked = new ArrayList<>();
        List<String> leaks = new ArrayList<>();
        for (Operation op : operations()) {
            String path = fill(op.path(), bobs);
            Answer alice = call("alice", op.method(), path, bodyFor(op), op.idempotent() ? keyFor(op) : null);
            walked.add(op + " -> " + alice.status());
            Set<String> named = uuids(alice.body());
            named.retainAll(bobs.all());
            named.removeAll(uuids(path)); // a not-found problem may repeat the id she asked for
            if (!named.isEmpty()) {
                leaks.add(op + " answered alice " + alice.status() + " naming bob's " + named);
            }
            if (op.path().contains("{id}")) {
                if (alice.status() != 404 || !alice.body().contains("https://schedlab.io/problems/not-found")) {
                    leaks.add(op + " on bob's object answered alice " + alice.status() + ": " + alice.body());
                }
                if (op.method().equals("GET")) {
                    Answer bob = call("bob", "GET", fill(op.path(), bobs), null, null);
                    assertThat(bob.status()).as("%s as bob (the walk's id must be real)", op).isNotEqualTo(404);
                }
            }
            if (op.idempotent() && alice.status() == 202) {
                Set<String> created = uuids(alice.body());
                assertThat(created).as("%s with bob's Idempotency-Key creates alice's own object", op).isNotEmpty();
            }
        }
        assertThat(leaks).as("walked:%n%s", String.join("\n", walked)).isEmpty();

        JsonNode experiment = json.readTree(call("bob", "GET", "/api/v1/experiments/" + bobs.experiment(), null, null).body());
        assertThat(experiment.path("status").asString()).isEqualTo("QUEUED");
        assertThat(experiment.path("cancelRequested").asBoolean()).isFalse();
        for (String sweep : bobs.sweeps()) {
            JsonNode s = json.readTree(call("bob", "GET", "/api/v1/sweeps/" + sweep, null, null).body());
            assertThat(s.path("status").asString()).as(sweep).isEqualTo("QUEUED");
            assertThat(s.path("cancelRequested").asBoolean()).as(sweep).isFalse();
        }
        assertThat(listed("bob", "/api/v1/sweeps?size=100")).containsAll(bobs.sweeps());
        assertThat(listed("alice", "/api/v1/sweeps?size=100")).doesNotContainAnyElementsOf(bobs.sweeps()).isNotEmpty();
    }

    /** Every (method, path) of the contract, with whether it takes an Idempotency-Key. */
    @SuppressWarnings("unchecked")
    private static List<Operation> operations() throws Exception {
        Map<String, Object> doc = new Yaml().load(Files.readString(Path.of("openapi.yaml")));
        List<Operation> ops = new ArrayList<>();
        ((Map<String, Object>) doc.get("paths")).forEach((path, item) -> ((Map<String, Object>) item).forEach((m, o) -> {
            if (!(o instanceof Map<?, ?> operation)) {
                return;
            }
            Object params = operation.get("parameters");
            boolean idempotent = params instanceof List<?> list && list.stream()
                    .anyMatch(p -> p instanceof Map<?, ?> pm && "Idempotency-Key".equals(pm.get("name")));
            ops.add(new Operation(m.toUpperCase(), path, idempotent));
        }));
        assertThat(ops).hasSizeGreaterThan(20);
        return ops;
    }

    /** Bob's ids in the path; a parameter the walk does not know fails the test. */
    private static String fill(String path, Bobs bobs) {
        String filled = path;
        if (filled.startsWith("/api/v1/experiments/{id}")) {
            filled = filled.replace("{id}", bobs.experiment());
        } else if (filled.startsWith("/api/v1/sweeps/{id}")) {
            filled = filled.replace("{id}", bobs.sweep());
        }
        filled = filled.replace("{name}", SCENARIO);
        assertThat(filled).as("the walk fills every path parameter of %s", path).doesNotContain("{");
        return filled;
    }

    private static String bodyFor(Operation op) throws Exception {
        if (!op.method().equals("POST")) {
            return null;
        }
        return switch (op.path()) {
            case "/api/v1/experiments", "/api/v1/experiments:validate" -> KeyedClient.experiment("walked");
            case "/api/v1/sweeps" -> sweep();
            case "/api/v1/scenarios/{name}/runs" -> SCENARIO_RUN;
            default -> null;
        };
    }

    private static String keyFor(Operation op) {
        return "shared-" + op.path().hashCode();
    }

    private Bobs bobSubmitsOneOfEach() throws Exception {
        JsonNode experiment = accepted(call("bob", "POST", "/api/v1/experiments", KeyedClient.experiment("walked"),
                keyFor(new Operation("POST", "/api/v1/experiments", true))));
        JsonNode sweep = accepted(call("bob", "POST", "/api/v1/sweeps", sweep(),
                keyFor(new Operation("POST", "/api/v1/sweeps", true))));
        JsonNode run = accepted(call("bob", "POST", "/api/v1/scenarios/" + SCENARIO + "/runs", SCENARIO_RUN,
                keyFor(new Operation("POST", "/api/v1/scenarios/{name}/runs", true))));
        List<String> sweeps = new ArrayList<>(List.of(sweep.path("id").asString()));
        sweeps.addAll(run.path("tables").findValuesAsString("sweepId"));
        Set<String> all = new LinkedHashSet<>(sweeps);
        all.add(experiment.path("id").asString());
        for (String s : sweeps) {
            all.addAll(listed("bob", "/api/v1/experiments?size=100&label=sweep:" + s));
        }
        assertThat(all).hasSizeGreaterThan(sweeps.size() + 1);
        return new Bobs(experiment.path("id").asString(), sweep.path("id").asString(), sweeps, all);
    }

    private static String sweep() {
        return SweepAndScenarioIdempotencyTest.sweep("walked");
    }

    private List<String> listed(String user, String path) throws Exception {
        Answer page = call(user, "GET", path, null, null);
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        return json.readTree(page.body()).path("items").findValuesAsString("id");
    }

    private JsonNode accepted(Answer a) {
        assertThat(a.status()).as(a.body()).isEqualTo(202);
        return json.readTree(a.body());
    }

    private static Set<String> uuids(String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = UUID_TEXT.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /**
     * One call as {@code user}. A streaming answer (server-sent events) is read for at most two
     * seconds: its status and what arrived by then are the answer.
     */
    private Answer call(String user, String method, String path, String body, String idempotencyKey) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + user + "-key")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (idempotencyKey != null) {
            b.header("Idempotency-Key", idempotencyKey);
        }
        StringBuilder received = new StringBuilder();
        CompletableFuture<Integer> status = new CompletableFuture<>();
        CompletableFuture<HttpResponse<Void>> response = http.sendAsync(b.build(), info -> {
            status.complete(info.statusCode());
            return HttpResponse.BodySubscribers.fromLineSubscriber(new java.util.concurrent.Flow.Subscriber<String>() {
                @Override
                public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
                    s.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(String line) {
                    synchronized (received) {
                        received.append(line).append('\n');
                    }
                }

                @Override
                public void onError(Throwable t) {
                }

                @Override
                public void onComplete() {
                }
            });
        });
        int code = status.get(10, TimeUnit.SECONDS);
        try {
            response.get(2, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException streaming) {
            response.cancel(true);
        }
        synchronized (received) {
            return new Answer(code, received.toString());
        }
    }

    private record Operation(String method, String path, boolean idempotent) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    private record Answer(int status, String body) {
    }

    /** What bob submitted: his experiment, his sweep, every sweep (his and his scenario run's) and every id. */
    private record Bobs(String experiment, String sweep, List<String> sweeps, Set<String> all) {
    }
}

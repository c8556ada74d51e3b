package io.schedlab.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.auth.ApiKeys;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HexFormat;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Completion webhooks end to end against real HTTP receivers started here: experiments and sweeps
 * run by the service's workers, events posted by its webhook tasks. The retry schedule is shortened
 * only through properties (first retry 1 s, growing by 1.25 per attempt, 30 attempts).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:webhooks;DB_CLOSE_DELAY=-1",
        "schedlab.webhooks.allowed-hosts=127.0.0.1",
        "schedlab.webhooks.first-retry=1s",
        "schedlab.webhooks.backoff-rate=1.25",
        "schedlab.webhooks.max-attempts=30",
        "schedlab.webhooks.poll-interval=200ms"})
class CompletionWebhooksTest {

    /** CloudEvents attribute names: lower-case letters and digits (spec.md "Attribute Naming Convention"). */
    private static final Pattern ATTRIBUTE_NAME = Pattern.compile("[a-z0-9]{1,20}");
    private static final Duration OUTAGE = Duration.ofSeconds(60);

    @DynamicPropertySource
    static void keys(DynamicPropertyRegistry registry) throws Exception {
        Path file = Files.createTempFile(Files.createDirectories(Path.of("target")), "webhook-keys-", ".txt");
        Files.write(file, List.of(ApiKeys.sha256Hex("alice-key") + " submitter alice",
                ApiKeys.sha256Hex("bob-key") + " submitter bob"));
        registry.add("schedlab.auth.keys-file", file::toString);
    }

    @LocalServerPort
    int port;
    @Autowired
    MeterRegistry meters;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void theEventArrivesSignedWithTheKeysSecretAndIsAValidCloudEvent() throws Exception {
        try (Receiver receiver = Receiver.failingFirst(0)) {
            String id = submitExperiment("bob", receiver.url("/hooks/done")).path("id").asString();

            awaitTrue(() -> receiver.requests().size() == 1, Duration.ofSeconds(60));
            Receiver.Request request = receiver.requests().get(0);
            assertThat(request.path()).isEqualTo("/hooks/done");
            assertThat(request.header("Content-Type")).startsWith("application/cloudevents+json");
            String secret = json.readTree(call("bob", "GET", "/api/v1/webhooks/secret").body()).path("secret").asString();
            assertThat(request.header("X-SchedLab-Signature")).isEqualTo("sha256=" + hmac(secret, request.body()));

            JsonNode event = json.readTree(request.text());
            assertValidCloudEvent(event);
            assertThat(event.path("type").asString()).isEqualTo("io.schedlab.experiment.finished");
            assertThat(event.path("source").asString()).isEqualTo("/api/v1/experiments");
            assertThat(event.path("subject").asString()).isEqualTo(id);
            assertThat(event.path("data").path("id").asString()).isEqualTo(id);
            assertThat(event.path("data").path("status").asString()).isEqualTo(
                    json.readTree(call("bob", "GET", "/api/v1/experiments/" + id).body()).path("status").asString())
                    .isEqualTo("SUCCEEDED");
            assertThat(event.path("data").path("links").path("results").asString())
                    .isEqualTo("/api/v1/experiments/" + id + "/results");
            assertThat(request.header("X-SchedLab-Delivery")).isEqualTo(event.path("id").asString());

            JsonNode delivery = awaitDelivered("bob", "/api/v1/experiments/" + id + "/deliveries");
            assertThat(delivery.path("id").asString()).isEqualTo(event.path("id").asString());
            assertThat(delivery.path("attempts")).hasSize(1);
            assertThat(delivery.path("attempts").get(0).path("statusCode").asInt()).isEqualTo(204);
            assertThat(delivery.path("event")).isEqualTo(event);
        }
    }

    @Test
    void aReceiverFailingTwiceGetsTheEventOnTheThirdAttemptWithTheSameDeliveryId() throws Exception {
        double refusedBefore = count("schedlab.webhooks.attempts", "refused");
        double deliveredBefore = count("schedlab.webhooks.deliveries", "delivered");
        try (Receiver receiver = Receiver.failingFirst(2)) {
            String id = submitExperiment("bob", receiver.url("/flaky")).path("id").asString();

            JsonNode delivery = awaitDelivered("bob", "/api/v1/experiments/" + id + "/deliveries");
            assertThat(count("schedlab.webhooks.attempts", "refused") - refusedBefore).isGreaterThanOrEqualTo(2);
            assertThat(count("schedlab.webhooks.deliveries", "delivered") - deliveredBefore).isGreaterThanOrEqualTo(1);
            assertThat(receiver.requests()).hasSize(3);
            String deliveryId = delivery.path("id").asString();
            for (Receiver.Request r : receiver.requests()) {
                assertThat(json.readTree(r.text()).path("id").asString()).isEqualTo(deliveryId);
                assertThat(r.text()).isEqualTo(receiver.requests().get(0).text());
            }
            assertThat(delivery.path("attempts").findValuesAsString("outcome"))
                    .containsExactly("REFUSED", "REFUSED", "DELIVERED");
            assertThat(delivery.path("attempts").findValues("statusCode")).extracting(JsonNode::asInt)
                    .containsExactly(503, 503, 204);
            Instant first = Instant.parse(delivery.path("attempts").get(0).path("startedAt").asString());
            Instant third = Instant.parse(delivery.path("attempts").get(2).path("startedAt").asString());
            // waits of 1 s then 1.25 s (first-retry x backoff-rate^n)
            assertThat(Duration.between(first, third)).isGreaterThanOrEqualTo(Duration.ofMillis(2250));
        }
    }

    @Test
    void aReceiverDownForAMinuteGetsTheEventAfterwardsOncePerDeliveryId() throws Exception {
        int downPort = Receiver.freePort();
        String url = "http://127.0.0.1:" + downPort + "/later";
        String id = submitExperiment("bob", url).path("id").asString();
        String log = "/api/v1/experiments/" + id + "/deliveries";
        awaitTrue(() -> deliveryOf("bob", log).path("attempts").size() > 0, Duration.ofSeconds(60));
        Instant firstFailure = Instant.parse(deliveryOf("bob", log).path("attempts").get(0).path("startedAt").asString());
        Duration down = OUTAGE.minus(Duration.between(firstFailure, Instant.now()));
        if (!down.isNegative()) {
            Thread.sleep(down.toMillis());
        }
        try (Receiver receiver = Receiver.on(downPort)) {
            JsonNode delivery = awaitDelivered("bob", log);
            Thread.sleep(3000); // room for a duplicate to show up
            assertThat(receiver.requests()).hasSize(1);
            assertThat(json.readTree(receiver.requests().get(0).text()).path("id").asString())
                    .isEqualTo(delivery.path("id").asString());
            JsonNode attempts = delivery.path("attempts");
            assertThat(attempts.size()).isGreaterThan(2);
            for (int i = 0; i < attempts.size() - 1; i++) {
                assertThat(attempts.get(i).path("outcome").asString()).isEqualTo("UNREACHABLE");
                assertThat(attempts.get(i).has("statusCode")).isFalse();
            }
            Instant last = Instant.parse(attempts.get(attempts.size() - 1).path("startedAt").asString());
            assertThat(Duration.between(firstFailure, last)).isGreaterThanOrEqualTo(OUTAGE);
        }
    }

    @Test
    void aSweepIsNotifiedOnceEveryChildHasFinishedSignedWithTheRotatedSecret() throws Exception {
        String old = json.readTree(call("alice", "GET", "/api/v1/webhooks/secret").body()).path("secret").asString();
        HttpResponse<String> rotated = call("alice", "POST", "/api/v1/webhooks/secret");
        assertThat(rotated.statusCode()).isEqualTo(200);
        String secret = json.readTree(rotated.body()).path("secret").asString();
        assertThat(secret).hasSize(64).isNotEqualTo(old);
        try (Receiver receiver = Receiver.failingFirst(0)) {
            HttpResponse<String> submitted = post("alice", "/api/v1/sweeps", sweep(receiver.url("/sweeps")));
            assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
            String id = json.readTree(submitted.body()).path("id").asString();

            awaitTrue(() -> receiver.requests().size() == 1, Duration.ofSeconds(60));
            Receiver.Request request = receiver.requests().get(0);
            assertThat(request.header("X-SchedLab-Signature")).isEqualTo("sha256=" + hmac(secret, request.body()))
                    .isNotEqualTo("sha256=" + hmac(old, request.body()));
            JsonNode event = json.readTree(request.text());
            assertValidCloudEvent(event);
            assertThat(event.path("type").asString()).isEqualTo("io.schedlab.sweep.finished");
            assertThat(event.path("subject").asString()).isEqualTo(id);
            JsonNode sweep = json.readTree(call("alice", "GET", "/api/v1/sweeps/" + id).body());
            assertThat(sweep.path("status").asString()).isEqualTo("SUCCEEDED");
            assertThat(event.path("data").path("status").asString()).isEqualTo(sweep.path("status").asString());
            assertThat(sweep.path("done").asLong()).isEqualTo(sweep.path("total").asLong()).isEqualTo(2);
        }
    }

    @Test
    void aHostNotAllowedAnotherSchemeOrAnUnknownFieldIsRefusedAtSubmissionNamingItsPointer() throws Exception {
        assertRefused(post("bob", "/api/v1/experiments", refused("https://example.com/hook")), "/notify/url", "not allowed");
        assertRefused(post("bob", "/api/v1/experiments", refused("ftp://127.0.0.1/hook")), "/notify/url", "http or https");
        assertRefused(post("bob", "/api/v1/experiments", refused("http://user:pw@127.0.0.1/hook")), "/notify/url",
                "user information");
        assertRefused(post("bob", "/api/v1/experiments:validate", refused("https://example.com/hook")), "/notify/url",
                "not allowed");
        assertRefused(post("bob", "/api/v1/experiments", tiny(true).replaceFirst("\\{",
                "{\"notify\": {\"url\": \"http://127.0.0.1/x\", \"secret\": \"s\"},")), "/notify/secret", "unknown field");
        assertRefused(post("bob", "/api/v1/sweeps", sweep("https://example.com/hook")), "/notify/url", "not allowed");
        assertRefused(post("bob", "/api/v1/sweeps", sweep("http://127.0.0.1/x").replace("\"base\": {",
                "\"base\": {\"notify\": {\"url\": \"http://127.0.0.1/y\"}, ")), "/base/notify", "on the sweep");
        HttpResponse<String> list = call("bob", "GET", "/api/v1/experiments?size=100&label=hook-test:refused");
        assertThat(json.readTree(list.body()).path("items")).as("nothing refused was stored").isEmpty();
    }

    @Test
    void anotherKeyCannotReadTheDeliveryLog() throws Exception {
        try (Receiver receiver = Receiver.failingFirst(0)) {
            String experiment = submitExperiment("bob", receiver.url("/mine")).path("id").asString();
            HttpResponse<String> sweep = post("bob", "/api/v1/sweeps", sweep(receiver.url("/mine-too")));
            String sweepId = json.readTree(sweep.body()).path("id").asString();
            for (String path : List.of("/api/v1/experiments/" + experiment + "/deliveries",
                    "/api/v1/sweeps/" + sweepId + "/deliveries")) {
                HttpResponse<String> alice = call("alice", "GET", path);
                assertThat(alice.statusCode()).as(path).isEqualTo(404);
                assertThat(alice.body()).contains("not-found").doesNotContain(receiver.url(""));
                HttpResponse<String> bob = call("bob", "GET", path);
                assertThat(bob.statusCode()).as(path).isEqualTo(200);
                assertThat(json.readTree(bob.body()).path("deliveries")).hasSize(1);
                awaitDelivered("bob", path); // no retries left behind for a closed receiver
            }
            String aliceSecret = json.readTree(call("alice", "GET", "/api/v1/webhooks/secret").body()).path("secret")
                    .asString();
            String bobSecret = json.readTree(call("bob", "GET", "/api/v1/webhooks/secret").body()).path("secret")
                    .asString();
            assertThat(aliceSecret).isNotEqualTo(bobSecret);
        }
    }

    private double count(String meter, String outcome) {
        return meters.get(meter).tag("outcome", outcome).counter().count();
    }

    private void assertRefused(HttpResponse<String> answer, String pointer, String message) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(422);
        assertThat(answer.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        JsonNode errors = json.readTree(answer.body()).path("errors");
        assertThat(errors.findValuesAsString("pointer")).as(answer.body()).contains(pointer);
        assertThat(answer.body()).contains(message);
    }

    /** The CloudEvents 1.0 rules an event of ours must meet (spec.md "Context Attributes", json-format.md). */
    private static void assertValidCloudEvent(JsonNode event) {
        assertThat(event.path("specversion").asString()).isEqualTo("1.0");
        for (String required : List.of("id", "source", "type")) {
            assertThat(event.path(required).isString()).as(required).isTrue();
            assertThat(event.path(required).asString()).as(required).isNotEmpty();
        }
        URI.create(event.path("source").asString()); // a URI-reference
        OffsetDateTime.parse(event.path("time").asString()); // RFC 3339
        assertThat(event.path("datacontenttype").asString()).isEqualTo("application/json");
        assertThat(event.path("data").isObject()).isTrue();
        for (String name : event.propertyNames()) {
            assertThat(name).matches(ATTRIBUTE_NAME);
        }
    }

    private JsonNode awaitDelivered(String user, String log) throws Exception {
        awaitTrue(() -> "DELIVERED".equals(deliveryOf(user, log).path("state").asString()), Duration.ofSeconds(120));
        return deliveryOf(user, log);
    }

    private JsonNode deliveryOf(String user, String log) {
        try {
            HttpResponse<String> answer = call(user, "GET", log);
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            return json.readTree(answer.body()).path("deliveries").path(0);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitTrue(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited %s", timeout).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private static String hmac(String secret, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(body));
    }

    private JsonNode submitExperiment(String user, String notifyUrl) throws Exception {
        HttpResponse<String> answer = post(user, "/api/v1/experiments", experiment(notifyUrl));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
        return json.readTree(answer.body());
    }

    /** The smallest experiment: half a simulated second, one VM; labelled {@code hook-test:refused} when refused. */
    private static String tiny(boolean refused) {
        return "{\"name\": \"hook\", \"labels\": {\"hook-test\": \"" + (refused ? "refused" : "taken")
                + "\"}, \"durationSeconds\": 0.5,"
                + " \"host\": {\"sockets\": 1, \"coresPerSocket\": 2}, \"scheduler\": {\"policy\": \"credit\"},"
                + " \"vms\": [{\"name\": \"a\", \"vcpus\": 1, \"workload\": {\"type\": \"cpu-loop\"}}]}";
    }

    private static String experiment(String notifyUrl) {
        return tiny(false).replaceFirst("\\{", "{\"notify\": {\"url\": \"" + notifyUrl + "\"},");
    }

    private static String refused(String notifyUrl) {
        return tiny(true).replaceFirst("\\{", "{\"notify\": {\"url\": \"" + notifyUrl + "\"},");
    }

    private static String sweep(String notifyUrl) {
        return "{\"name\": \"hooked\", \"seed\": 3, \"repetitions\": 1, \"notify\": {\"url\": \"" + notifyUrl + "\"},"
                + " \"base\": {\"durationSeconds\": 0.5, \"host\": {\"sockets\": 1, \"coresPerSocket\": 2},"
                + " \"scheduler\": {\"policy\": \"credit\"},"
                + " \"vms\": [{\"name\": \"a\", \"vcpus\": 1, \"workload\": {\"type\": \"cpu-loop\"}}]},"
                + " \"axes\": [{\"name\": \"policy\", \"variants\": [{\"name\": \"credit\", \"patch\": {}},"
                + " {\"name\": \"credit2\", \"patch\": {\"scheduler\": {\"policy\": \"credit2\"}}}]}],"
                + " \"metrics\": [{\"name\": \"switches\", \"pointer\": \"/summary/contextSwitches\", \"better\": \"lower\"}]}";
    }

    private HttpResponse<String> post(String user, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + user + "-key")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private HttpResponse<String> call(String user, String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + user + "-key")
                .method(method, HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}

package io.schedlab.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The keys file is read again when it changes, without a restart: an added key works, a removed
 * one is 401, and a malformed file is refused (the previous keys stay in force, the refusal is
 * counted and shown in the health details) until a good file replaces it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:keys-reload;DB_CLOSE_DELAY=-1", "schedlab.jobs.enabled=false",
        "schedlab.auth.keys-reload-interval=100ms", "management.endpoint.health.show-details=always"})
class ApiKeysReloadTest {

    private static final Duration SOON = Duration.ofSeconds(10);
    static Path file;

    @DynamicPropertySource
    static void keys(DynamicPropertyRegistry registry) throws Exception {
        file = KeyedClient.useKeysFile(registry, List.of("alice"));
    }

    @LocalServerPort
    int port;
    @Autowired
    MeterRegistry meters;

    private final JsonMapper json = JsonMapper.builder().build();

    private int status(String user) throws Exception {
        return new KeyedClient(port).get(user, "/api/v1/experiments").statusCode();
    }

    /** Replaces the keys file in one step (as an editor or a secret mount does), with these lines. */
    private static void write(List<String> lines) throws Exception {
        Path next = Files.createTempFile(file.getParent(), "api-keys-next-", ".txt");
        Files.write(next, lines);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String line(String user) {
        return ApiKeys.sha256Hex(user + "-key") + " submitter " + user;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + SOON.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private BooleanSupplier answers(String user, int code) {
        return () -> {
            try {
                return status(user) == code;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    private JsonNode keysHealth() throws Exception {
        return json.readTree(new KeyedClient(port).get("nobody", "/actuator/health").body())
                .path("components").path("apiKeys").path("details");
    }

    private double refusals() {
        return meters.get("schedlab.auth.keys.reload.failures").counter().count();
    }

    @Test
    void anAddedKeyWorksARemovedOneIs401AndAMalformedFileKeepsTheOldKeys() throws Exception {
        assertThat(status("alice")).isEqualTo(200);
        assertThat(status("bob")).isEqualTo(401);

        write(List.of(line("alice"), line("bob")));
        await("bob's new key accepted without a restart", answers("bob", 200));
        assertThat(status("alice")).isEqualTo(200);
        assertThat(keysHealth().path("keys").asInt()).isEqualTo(2);

        write(List.of(line("alice"), line("bob"), "not a key line"));
        await("the malformed file counted as refused", () -> refusals() == 1);
        assertThat(status("alice")).isEqualTo(200);
        assertThat(status("bob")).isEqualTo(200);
        assertThat(keysHealth().path("lastReloadError").asString()).contains("line 3");
        assertThat(meters.get("schedlab.auth.keys").gauge().value()).isEqualTo(2);

        write(List.of(line("bob")));
        await("alice's removed key refused", answers("alice", 401));
        assertThat(status("bob")).isEqualTo(200);
        assertThat(keysHealth().has("lastReloadError")).isFalse();
        assertThat(refusals()).isEqualTo(1);
    }
}

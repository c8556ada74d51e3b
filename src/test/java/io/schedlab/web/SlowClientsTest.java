package io.schedlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Slow and greedy clients against the real embedded Tomcat: a client trickling its headers (or its body) one byte
 * a second is cut off within {@code schedlab.http.header-timeout} (or {@code body-timeout}) while other clients
 * are served meanwhile; a client holding more than {@code max-connections-per-client} connections gets
 * {@code 429 too-many-connections} problems until it closes some.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:slow-clients;DB_CLOSE_DELAY=-1", "schedlab.jobs.enabled=false",
        "schedlab.http.header-timeout=2s", "schedlab.http.body-timeout=2s",
        "schedlab.http.max-connections-per-client=" + SlowClientsTest.LIMIT})
class SlowClientsTest {

    static final int LIMIT = 8;
    private static final Duration BOUND = Duration.ofSeconds(2);
    /** The sweep period, a byte's interval (the cut is seen at the next byte or read), scheduling slack. */
    private static final Duration SLACK = Duration.ofMillis(SlowClientGuard.SWEEP_MILLIS + 1000 + 750);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void clientsTricklingTheirHeadersAreCutOffWhileOthersAreServed() throws Exception {
        List<CompletableFuture<Duration>> tricklers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            tricklers.add(CompletableFuture.supplyAsync(() -> trickle("GET /api/v1/experiments HTTP/1.1\r\nHost: localhost"
                    + "\r\nX-Slow: ", Duration.ofSeconds(30))));
        }
        // others are served, promptly, all the while
        int served = 0;
        long until = System.nanoTime() + BOUND.plus(SLACK).toNanos();
        while (System.nanoTime() < until) {
            long start = System.nanoTime();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/api/v1/experiments")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
            served++;
            Thread.sleep(200);
        }
        for (CompletableFuture<Duration> trickler : tricklers) {
            Duration cut = trickler.get(40, TimeUnit.SECONDS);
            System.out.println("header trickler cut off after (ms): " + cut.toMillis());
            assertThat(cut).isGreaterThanOrEqualTo(BOUND).isLessThanOrEqualTo(BOUND.plus(SLACK));
        }
        assertThat(served).isGreaterThanOrEqualTo(5);
    }

    @Test
    void aClientTricklingItsBodyIsAnswered408AndCutOffAfterTheBodyTimeout() {
        StringBuilder answer = new StringBuilder();
        Duration cut = trickle("POST /api/v1/experiments:validate HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"name\":\"", Duration.ofSeconds(30),
                answer);
        System.out.println("body trickler cut off after (ms): " + cut.toMillis() + ", answered: " + answer);
        assertThat(cut).isGreaterThanOrEqualTo(BOUND).isLessThanOrEqualTo(BOUND.plus(SLACK));
        assertThat(answer.toString()).startsWith("HTTP/1.1 408").contains("application/problem+json")
                .contains(ProblemKind.REQUEST_TIMEOUT.type().toString());
    }

    @Test
    void connectionsBeyondTheLimitAreRefusedWithAProblem() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < LIMIT; i++) {
                held.add(new Socket("127.0.0.1", port)); // open, idle
            }
            Thread.sleep(300); // accepted by Tomcat's acceptor
            RawHttp.Answer refused = RawHttp.send(port, "GET /api/v1/experiments HTTP/1.1");
            HostileRequestsTest.assertProblem(refused, "connection " + (LIMIT + 1));
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.header("Retry-After")).isEqualTo("1");
            JsonNode problem = JSON.readTree(refused.body());
            assertThat(problem.path("type").asString()).isEqualTo(ProblemKind.TOO_MANY_CONNECTIONS.type().toString());
            assertThat(problem.path("limit").asInt()).isEqualTo(LIMIT);
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
        Thread.sleep(300);
        assertThat(RawHttp.send(port, "GET /api/v1/experiments HTTP/1.1").status()).as("served again").isEqualTo(200);
    }

    /**
     * Sends {@code head} at once, then one more byte every second, until the server closes the connection;
     * returns the time from the first byte to the close.
     */
    private Duration trickle(String head, Duration giveUp) {
        StringBuilder answer = new StringBuilder();
        Duration cut = trickle(head, giveUp, answer);
        assertThat(answer).as("no answer to a request never complete").isEmpty();
        return cut;
    }

    /** As {@link #trickle(String, Duration)}, collecting what the server answered into {@code answer}. */
    private Duration trickle(String head, Duration giveUp, StringBuilder answer) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) giveUp.toMillis());
            OutputStream out = socket.getOutputStream();
            long start = System.nanoTime();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            Thread writer = new Thread(() -> {
                try {
                    while (true) {
                        Thread.sleep(1000);
                        out.write('a');
                        out.flush();
                    }
                } catch (IOException | InterruptedException closed) {
                    // the server closed the connection (or the test ended)
                }
            });
            writer.setDaemon(true);
            writer.start();
            try {
                for (int b = socket.getInputStream().read(); b >= 0; b = socket.getInputStream().read()) {
                    answer.append((char) b);
                }
            } catch (IOException reset) {
                // closed with unread bytes: reset
            } finally {
                writer.interrupt();
            }
            return Duration.ofNanos(System.nanoTime() - start);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.schedlab.auth;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.springframework.core.io.ClassPathResource;
import org.springframework.test.context.DynamicPropertyRegistry;

/** HTTP calls as one of the submitters of a test keys file ({@code USER-key} is the key of {@code USER}). */
final class KeyedClient {

    private final HttpClient http = HttpClient.newHttpClient();
    private final int port;

    KeyedClient(int port) {
        this.port = port;
    }

    /** A keys file under target/ with one submitter key per user. */
    static Path keysFile(List<String> users) throws Exception {
        Path file = Files.createTempFile(Files.createDirectories(Path.of("target")), "api-keys-", ".txt");
        List<String> lines = new ArrayList<>();
        users.forEach(u -> lines.add(ApiKeys.sha256Hex(u + "-key") + " submitter " + u));
        Files.write(file, lines);
        return file;
    }

    /** Points {@code schedlab.auth.keys-file} at a new {@link #keysFile(List) keys file} of these users. */
    static Path useKeysFile(DynamicPropertyRegistry registry, List<String> users) throws Exception {
        Path file = keysFile(users);
        registry.add("schedlab.auth.keys-file", file::toString);
        return file;
    }

    /** The seed 001 experiment (static policy) under another name. */
    static String experiment(String name) throws Exception {
        String seed = new ClassPathResource("service/seed001-static.json").getContentAsString(StandardCharsets.UTF_8);
        return seed.replaceFirst("\\{", "{\"name\":\"" + name + "\",")
                .replaceFirst(",\\s*\"name\"\\s*:\\s*\"[^\"]*\"", "");
    }

    /** POST {@code body} (JSON) to {@code path} as {@code user}, with an Idempotency-Key unless null. */
    HttpResponse<String> post(String user, String path, String idempotencyKey, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + user + "-key")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) {
            b.header("Idempotency-Key", idempotencyKey);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** GET {@code path} as {@code user}. */
    HttpResponse<String> get(String user, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + user + "-key").GET().build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** Sends {@code copies} of a request at once (one thread each, released together) and returns every answer. */
    static List<HttpResponse<String>> concurrently(int copies, Call call) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(copies);
        try {
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < copies; i++) {
                answers.add(CompletableFuture.supplyAsync(unchecked(() -> {
                    go.await();
                    return call.send();
                }), threads));
            }
            go.countDown();
            List<HttpResponse<String>> out = new ArrayList<>();
            for (CompletableFuture<HttpResponse<String>> a : answers) {
                out.add(a.get());
            }
            return out;
        } finally {
            threads.shutdownNow();
        }
    }

    /** One request. */
    @FunctionalInterface
    interface Call {
        HttpResponse<String> send() throws Exception;
    }

    private static Supplier<HttpResponse<String>> unchecked(Call call) {
        return () -> {
            try {
                return call.send();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }
}

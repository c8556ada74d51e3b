package io.schedlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.SchedLabApplication;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Generated hostile requests over every operation of openapi.yaml, sent over a raw socket to the
 * real service (embedded Tomcat, H2, workers off): declared and other methods, path parameters
 * from real ids to %-garbage and 10,000 characters, declared and undeclared query parameters with
 * undecodable values, odd Accept / Content-Type / Idempotency-Key headers, and bodies from the seed
 * 001 experiment mutated, truncated or replaced by junk. Every answer is below 500, and every 4xx
 * is application/problem+json with a SchedLab type (HEAD answers carry no body).
 */
class ApiFuzzProperties {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Map<Integer, AtomicInteger> STATUSES = new ConcurrentHashMap<>();
    private static ConfigurableApplicationContext app;
    private static int port;
    private static String existingId;
    private static String seedBody;
    private static List<Operation> operations;

    /** One operation of the contract: method, path template, its parameters and whether it takes a body. */
    record Operation(String method, String path, List<String> query, List<String> headers, boolean body) {
    }

    /** One generated request. */
    record Request(Operation op, String method, String path, String query, String accept, String contentType,
            String idempotencyKey, byte[] body) {
    }

    @BeforeContainer
    static void start() throws Exception {
        app = SpringApplication.run(SchedLabApplication.class, "--server.port=0", "--schedlab.jobs.enabled=false",
                "--spring.datasource.url=jdbc:h2:mem:fuzz-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                "--schedlab.data-dir=target/test-data/fuzz", "--schedlab.limits.max-event-stream-duration=2s",
                "--logging.level.root=WARN");
        port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
        seedBody = Files.readString(Path.of("src/test/resources/service/seed001-static.json"));
        RawHttp.Answer created = RawHttp.send(port, "POST /api/v1/experiments HTTP/1.1\r\nContent-Type: application/json",
                seedBody.getBytes(StandardCharsets.UTF_8));
        assertThat(created.status()).as(created.body()).isEqualTo(202);
        existingId = JSON.readTree(created.body()).path("id").asString();
        operations = contractOperations();
        assertThat(operations).hasSizeGreaterThanOrEqualTo(12);
    }

    @AfterContainer
    static void stop() {
        System.out.println("fuzz answers by status: " + new TreeMap<>(STATUSES));
        if (app != null) {
            app.close();
        }
    }

    @SuppressWarnings("unchecked")
    static List<Operation> contractOperations() throws Exception {
        Map<String, Object> doc = new Yaml().load(Files.readString(Path.of("openapi.yaml")));
        List<Operation> out = new ArrayList<>();
        ((Map<String, Object>) doc.get("paths")).forEach((path, item) -> ((Map<String, Object>) item).forEach((m, o) -> {
            if (!List.of("get", "post", "put", "delete", "patch").contains(m)) {
                return;
            }
            Map<String, Object> op = (Map<String, Object>) o;
            List<String> query = new ArrayList<>();
            List<String> headers = new ArrayList<>();
            for (Object p : (List<Object>) op.getOrDefault("parameters", List.of())) {
                Map<String, Object> param = (Map<String, Object>) p;
                if ("query".equals(param.get("in"))) {
                    query.add((String) param.get("name"));
                } else if ("header".equals(param.get("in"))) {
                    headers.add((String) param.get("name"));
                }
            }
            out.add(new Operation(m.toUpperCase(), path, query, headers, op.containsKey("requestBody")));
        }));
        return out;
    }

    @Property(tries = 10_000, seed = "20261201")
    void noServerErrorAndProblemJsonForEveryRejection(@ForAll("requests") Request r) throws Exception {
        StringBuilder head = new StringBuilder(r.method()).append(' ').append(r.path());
        if (!r.query().isEmpty()) {
            head.append('?').append(r.query());
        }
        head.append(" HTTP/1.1");
        if (r.accept() != null) {
            head.append("\r\nAccept: ").append(r.accept());
        }
        if (r.contentType() != null) {
            head.append("\r\nContent-Type: ").append(r.contentType());
        }
        if (r.idempotencyKey() != null) {
            head.append("\r\nIdempotency-Key: ").append(r.idempotencyKey());
        }
        RawHttp.Answer a = RawHttp.send(port, head.toString(), r.body());
        STATUSES.computeIfAbsent(a.status(), s -> new AtomicInteger()).incrementAndGet();
        String what = head + " [" + r.body().length + " body bytes] -> " + a.status() + " " + a.body();
        assertThat(a.status()).as(what).isLessThan(500);
        if (a.status() >= 400 && !"HEAD".equals(r.method())) {
            assertThat(a.header("Content-Type")).as(what).startsWith("application/problem+json");
            JsonNode problem = JSON.readTree(a.body());
            assertThat(problem.path("type").asString()).as(what).startsWith(ProblemKind.BASE);
            assertThat(problem.path("status").asInt()).as(what).isEqualTo(a.status());
        }
    }

    @Provide
    Arbitrary<Request> requests() {
        Arbitrary<Operation> op = Arbitraries.of(operations);
        Arbitrary<String> otherMethod = Arbitraries.of("PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "POST", "GET",
                "PROPFIND");
        Arbitrary<String> idValue = Arbitraries.oneOf(
                Arbitraries.just("EXISTING"),
                Arbitraries.create(() -> UUID.randomUUID().toString()),
                Arbitraries.of("%ED%A0%80", "%00", "%2F", "%5C", "%25", "%ZZ", "..", "a;b=c", "%E2%82%AC", "null",
                        "00000000-0000-0000-0000-00000000000g", "%20", "~", "%2e%2e"),
                Arbitraries.strings().ofMinLength(0).ofMaxLength(40).withCharRange('!', '~'),
                Arbitraries.integers().between(1, 10_000).map("a"::repeat));
        Arbitrary<String> queryValue = Arbitraries.oneOf(
                Arbitraries.of("", "true", "false", "0", "-1", "1", "99999999999", "%ZZ", "%", "%E2%82", "a%00b",
                        "QUEUED", "running", "x:y", "k:v,w", "%2B"),
                Arbitraries.strings().ofMaxLength(30).withCharRange('!', '~').map(s -> s.replace("#", "%23").replace("&", "")),
                Arbitraries.integers().between(1, 5000).map("q"::repeat));
        Arbitrary<String> accept = Arbitraries.of("application/json", "*/*", "text/html", "image/png",
                "application/xml", "text/event-stream", "text/csv", "application/problem+json", ";;;", "*/*;q=abc")
                .injectNull(0.3);
        Arbitrary<String> contentType = Arbitraries.of("application/json", "application/json", "application/json",
                "text/plain", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded",
                "application/json; charset=latin1", "application/xml", "garbage").injectNull(0.1);
        Arbitrary<String> idemKey = Arbitraries.strings().ofMinLength(0).ofMaxLength(300).withCharRange(' ', '~')
                .injectNull(0.6);
        Arbitrary<byte[]> body = Arbitraries.oneOf(
                Arbitraries.just(new byte[0]),
                Arbitraries.integers().between(0, 4000).map(n -> seedBody.substring(0, Math.min(n, seedBody.length()))
                        .getBytes(StandardCharsets.UTF_8)),
                Arbitraries.integers().between(0, 1 << 20).map(ApiFuzzProperties::mutatedSeed),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(200),
                Arbitraries.of("{}", "[]", "null", "1", "\"x\"", "{\"vms\":[{}]}", "{\"host\":{\"sockets\":-1}}",
                        "--x\r\n\r\n{}\r\n--x--", "{\"name\":\"\\u0000\"}", "{\"durationSeconds\":1e309}")
                        .map(s -> s.getBytes(StandardCharsets.UTF_8)));
        Arbitrary<List<String>> queryNames = Arbitraries.of("page", "size", "status", "name", "label", "dryRun", "a",
                "%ZZ", "", "x%00").list().ofMaxSize(4);
        return Combinators.combine(op, Arbitraries.of(true, true, true, true, false), otherMethod, idValue,
                queryNames, queryValue.list().ofSize(4), accept, contentType).flatAs(
                (o, declared, other, id, names, values, acc, ct) -> Combinators.combine(idemKey, body,
                        Arbitraries.of(0, 0, 1, 2)).as((k, b, queryMode) -> {
                    String path = o.path().replace("{id}", "EXISTING".equals(id)
                            ? (o.path().endsWith("/events") ? UUID.randomUUID().toString() : existingId) : id);
                    List<String> parts = new ArrayList<>();
                    // query mode 0: none (bodies reach validation), 1: the declared ones, 2: declared and others
                    List<String> allNames = new ArrayList<>(queryMode == 0 ? List.of() : o.query());
                    if (queryMode == 2) {
                        allNames.addAll(names);
                    }
                    for (int i = 0; i < allNames.size() && i < 4; i++) {
                        parts.add(allNames.get(i) + "=" + values.get(i));
                    }
                    boolean sendBody = o.body() || b.length % 7 == 0;
                    return new Request(o, declared ? o.method() : other, path, String.join("&", parts), acc,
                            sendBody ? ct : null, o.headers().contains("Idempotency-Key") ? k : null,
                            sendBody ? b : new byte[0]);
                }));
    }

    /** The seed experiment with one value replaced at a position chosen by {@code at}. */
    static byte[] mutatedSeed(int at) {
        String[] values = {"-1", "0", "1e308", "\"x\"", "null", "[]", "{}", "true", "99999999999999999999", "-0.0", "\"\""};
        String s = seedBody;
        int pos = at % s.length();
        int colon = s.indexOf(':', pos);
        if (colon < 0) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        int end = colon + 1;
        while (end < s.length() && ",}]".indexOf(s.charAt(end)) < 0) {
            end++;
        }
        return (s.substring(0, colon + 1) + values[at % values.length] + s.substring(end)).getBytes(StandardCharsets.UTF_8);
    }
}

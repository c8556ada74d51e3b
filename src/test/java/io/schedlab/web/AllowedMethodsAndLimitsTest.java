package io.schedlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.yaml.snakeyaml.Yaml;

/**
 * What the service says about itself holds: {@code OPTIONS} and every 405's {@code Allow} list only
 * methods that a request of the same path is served with (never 405), and list every method the
 * contract has there; a query over the parameter limit is refused naming that limit; report pages
 * say how they may be cached.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:allowed-methods;DB_CLOSE_DELAY=-1", "schedlab.jobs.enabled=false"})
class AllowedMethodsAndLimitsTest {

    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE");

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void optionsListsOnlyMethodsThatAreServed() throws Exception {
        Map<String, Set<String>> contract = contractMethods();
        Map<String, Set<String>> paths = new LinkedHashMap<>(contract);
        for (String extra : List.of("/", "/index.html", "/api/v1/nothing", "/actuator/health", "/v3/api-docs")) {
            paths.putIfAbsent(extra, Set.of());
        }
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : paths.entrySet()) {
            String path = e.getKey().replace("{id}", UUID.randomUUID().toString()).replace("{name}", "no-such-scenario"); // served, and answered at once (404)
            HttpResponse<String> options = send("OPTIONS", path);
            Set<String> allow = allow(options);
            if (options.statusCode() >= 400 && options.statusCode() != 404) {
                wrong.add("OPTIONS " + path + " answered " + options.statusCode());
            }
            if (!allow.containsAll(e.getValue())) {
                wrong.add("OPTIONS " + path + " Allow " + allow + " misses the contract's " + e.getValue());
            }
            for (String method : allow) {
                if (!method.equals("OPTIONS") && send(method, path).statusCode() == 405) {
                    wrong.add("OPTIONS " + path + " lists " + method + ", which answers 405");
                }
            }
            for (String method : METHODS) {
                HttpResponse<String> r = send(method, path);
                if (r.statusCode() == 405 && allow(r).stream().anyMatch(m -> !m.equals("OPTIONS")
                        && sendQuietly(m, path) == 405)) {
                    wrong.add(method + " " + path + " is 405 with an Allow that lists a method answering 405: " + allow(r));
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void aQueryOverTheParameterLimitNamesTheLimit() throws Exception {
        String query = IntStream.range(0, 1_001).mapToObj(i -> "p" + i + "=1").collect(Collectors.joining("&"));
        HttpResponse<String> r = send("GET", "/api/v1/experiments?" + query);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(r.body()).contains("1001 parameters").contains("at most 1000").contains("server.tomcat.max-parameter-count")
                .doesNotContain("could not be decoded");
        assertThat(send("GET", "/api/v1/experiments?" + query.substring(0, query.lastIndexOf('&'))).statusCode())
                .as("1,000 parameters are within the limit").isNotEqualTo(400);
    }

    @Test
    void reportPagesAreNeverStoredByACache() throws Exception {
        String seed = new org.springframework.core.io.ClassPathResource("service/seed001-static.json")
                .getContentAsString(StandardCharsets.UTF_8);
        HttpResponse<String> submitted = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/v1/experiments")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(seed)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        String location = submitted.headers().firstValue("Location").orElseThrow();
        HttpResponse<String> report = send("GET", location + "/report");
        assertThat(report.statusCode()).isEqualTo(200);
        assertThat(report.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(report.headers().firstValue("Cache-Control").orElse("")).contains("no-store");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Set<String>> contractMethods() throws Exception {
        Map<String, Object> doc = new Yaml().load(Files.readString(Path.of("openapi.yaml")));
        Map<String, Set<String>> out = new LinkedHashMap<>();
        ((Map<String, Object>) doc.get("paths")).forEach((path, item) -> out.put(path,
                ((Map<String, Object>) item).keySet().stream().map(String::toUpperCase).filter(METHODS::contains)
                        .collect(Collectors.toCollection(TreeSet::new))));
        return out;
    }

    private static Set<String> allow(HttpResponse<String> r) {
        return r.headers().allValues("Allow").stream().flatMap(v -> Arrays.stream(v.split(",")))
                .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toCollection(TreeSet::new));
    }

    private int sendQuietly(String method, String path) {
        try {
            return send(method, path).statusCode();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (method.equals("POST") || method.equals("PUT") || method.equals("PATCH")) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString("{}"));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}

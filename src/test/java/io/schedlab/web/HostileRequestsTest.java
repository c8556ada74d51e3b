package io.schedlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests a hostile or broken client sends, over a raw socket to the real embedded Tomcat: each
 * gets a 4xx application/problem+json answer with a SchedLab type and the security headers,
 * whether Tomcat, a filter, Spring MVC or the error page answers it. Never HTML, never a 5xx.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:hostile;DB_CLOSE_DELAY=-1", "schedlab.jobs.enabled=false"})
class HostileRequestsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @ParameterizedTest
    @ValueSource(strings = {
        "GET /api/v1/experiments?a=%ZZ HTTP/1.1",
        "GET /api/v1/experiments?%ZZ=1 HTTP/1.1",
        "GET /api/v1/experiments?page=%ZZ HTTP/1.1",
        "GET /api/v1/experiments/%ED%A0%80 HTTP/1.1",
        "GET /api/v1/experiments/%00 HTTP/1.1",
        "GET /api/v1/experiments/%2F HTTP/1.1",
        "GET /api/v1/experiments/%5C HTTP/1.1",
        "GET /api/v1/exper\u0001iments HTTP/1.1",
        "GET http://elsewhere/api/v1/experiments HTTP/1.1",
        "GET /api/v1/experiments HTTP/1.1\r\nHost: a\r\nHost: b",
        "TRACE /api/v1/experiments HTTP/1.1",
        "BREW /api/v1/experiments HTTP/1.1",
        "GET /error HTTP/1.1",
        "POST /error HTTP/1.1",
        "GET /api/v1/experiments HTTP/1.1\r\nAccept: text/html",
        "POST /api/v1/experiments HTTP/1.1\r\nAccept: ;;;",
        "GET /api/v1/experiments/%ZZ HTTP/1.1\r\nAccept: */*;q=abc",
        "GET /api/v1/experiments/00000000-0000-0000-0000-000000000000 HTTP/1.1\r\nAccept: image/png",
        "GET /api/v1/experiments/not-a-uuid HTTP/1.1\r\nAccept: text/html",
        "GET /api/v1/experiments/a;b=c HTTP/1.1",
        "GET /api/v1/experiments/%25 HTTP/1.1",
        "POST /api/v1/experiments/;!!!!!%/cancel HTTP/1.1",
        "GET /api/v1/experiments/a;b% HTTP/1.1",
        "GET /nothing/here HTTP/1.1",
        "DELETE /api/v1/schedulers HTTP/1.1"})
    void answersAProblemNeverHtmlNorA5xx(String head) throws Exception {
        assertProblem(RawHttp.send(port, head), head);
    }

    @Test
    void aTenThousandCharacterIdIsAProblem() throws Exception {
        assertProblem(RawHttp.send(port, "GET /api/v1/experiments/" + "a".repeat(10_000) + " HTTP/1.1"), "long id");
    }

    @Test
    void aMalformedMultipartBodyIsAProblem() throws Exception {
        RawHttp.Answer a = RawHttp.send(port, "POST /api/v1/experiments HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=x",
                "--x\r\n\r\n{}\r\n--x--".getBytes(StandardCharsets.ISO_8859_1));
        assertProblem(a, "multipart");
        assertThat(a.status()).isEqualTo(415);
    }

    @Test
    void aDeleteWithAnUndecodableFormBodyIsNoServerError() throws Exception {
        RawHttp.Answer a = RawHttp.send(port, "DELETE /api/v1/experiments/" + java.util.UUID.randomUUID()
                + " HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded", "a=%ZZ&\u00ff=%".getBytes(StandardCharsets.ISO_8859_1));
        assertProblem(a, "form DELETE");
        assertThat(a.status()).isEqualTo(404);
    }

    @Test
    void anEmptyDryRunIsRefusedNotStoredAndRun() throws Exception {
        RawHttp.Answer a = RawHttp.send(port, "POST /api/v1/experiments?dryRun= HTTP/1.1\r\nContent-Type: application/json",
                new org.springframework.core.io.ClassPathResource("service/seed001-static.json").getContentAsByteArray());
        assertProblem(a, "dryRun=");
        assertThat(a.status()).isEqualTo(400);
        assertThat(JSON.readTree(a.body()).path("errors").get(0).path("parameter").asString()).isEqualTo("dryRun");
        JsonNode list = JSON.readTree(RawHttp.send(port, "GET /api/v1/experiments HTTP/1.1").body());
        assertThat(list.path("totalItems").asLong()).isZero();
    }

    @Test
    void errorListsAreCappedWithTheTotalCount() throws Exception {
        StringBuilder body = new StringBuilder("{\"host\":{\"sockets\":1,\"coresPerSocket\":1},\"scheduler\":{\"policy\":\"credit\"},\"vms\":[");
        // 500 empty VMs, within schedlab.limits.max-vms (5000 would be one "at most 512 VMs" instead)
        for (int i = 0; i < 500; i++) {
            body.append(i == 0 ? "{}" : ",{}");
        }
        body.append("]}");
        RawHttp.Answer a = RawHttp.send(port, "POST /api/v1/experiments:validate HTTP/1.1\r\nContent-Type: application/json",
                body.toString().getBytes(StandardCharsets.UTF_8));
        assertProblem(a, "500 empty VMs");
        JsonNode problem = JSON.readTree(a.body());
        assertThat(problem.path("errors").size()).isEqualTo(ProblemDetailsAdvice.MAX_ERRORS);
        assertThat(problem.path("totalErrors").asInt()).isGreaterThan(500);
        assertThat(a.body().length()).isLessThan(20_000);
    }

    @Test
    void aNameWithControlCharactersIsInvalid() throws Exception {
        String spec = new org.springframework.core.io.ClassPathResource("service/seed001-static.json")
                .getContentAsString(StandardCharsets.UTF_8);
        JsonNode tree = JSON.readTree(spec);
        ((tools.jackson.databind.node.ObjectNode) tree).put("name", "evil\u001b[2Jname");
        RawHttp.Answer a = RawHttp.send(port, "POST /api/v1/experiments:validate HTTP/1.1\r\nContent-Type: application/json",
                JSON.writeValueAsBytes(tree));
        assertThat(a.status()).isEqualTo(422);
        assertThat(JSON.readTree(a.body()).path("errors").findValuesAsString("pointer")).contains("/name");
    }

    @Test
    void everyAnswerCarriesTheSecurityHeaders() throws Exception {
        for (String path : List.of("/api/v1/experiments", "/api/v1/schedulers", "/actuator/health", "/v3/api-docs")) {
            RawHttp.Answer a = RawHttp.send(port, "GET " + path + " HTTP/1.1");
            assertThat(a.status()).as(path).isEqualTo(200);
            assertThat(a.header("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
            assertThat(a.header("Cache-Control")).as(path).isEqualTo("no-store");
        }
        RawHttp.Answer page = RawHttp.send(port, "GET /swagger-ui/index.html HTTP/1.1");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Security-Policy")).isEqualTo(SecurityHeaders.PAGE_CSP);
        assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");
    }

    static void assertProblem(RawHttp.Answer a, String what) {
        assertThat(a.status()).as(what + " -> " + a.body()).isBetween(400, 499);
        assertThat(a.header("Content-Type")).as(what).startsWith("application/problem+json");
        assertThat(a.header("X-Content-Type-Options")).as(what).isEqualTo("nosniff");
        JsonNode problem = JSON.readTree(a.body());
        assertThat(problem.path("type").asString()).as(what).startsWith(ProblemKind.BASE);
        assertThat(problem.path("status").asInt()).as(what).isEqualTo(a.status());
    }
}

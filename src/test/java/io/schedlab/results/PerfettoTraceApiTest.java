package io.schedlab.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.schedlab.api.AwaitSuccess;
import io.schedlab.engine.trace.PerfettoChecks;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** GET /api/v1/experiments/{id}/trace.perfetto.json on a real traced run through the queue and the engine. */
@SpringBootTest(properties = {"spring.datasource.url=jdbc:h2:mem:perfetto-api;DB_CLOSE_DELAY=-1",
        "schedlab.data-dir=target/test-data/perfetto-api"})
@AutoConfigureMockMvc
class PerfettoTraceApiTest {

    static final String TRACED = """
            {"name": "perfetto api", "seed": 3, "durationSeconds": 0.1, "stopWhen": "duration",
             "host": {"sockets": 1, "coresPerSocket": 2},
             "scheduler": {"policy": "credit"},
             "trace": {"enabled": true},
             "vms": [
               {"name": "web", "vcpus": 2, "workload": {"type": "interactive", "params": {"threads": 2, "thinkMeanMs": 2.0, "burstMeanUs": 400.0}}},
               {"name": "batch", "vcpus": 2, "workload": {"type": "cpu-loop", "params": {"threads": 2, "workSeconds": 0.0}}}
             ]}
            """;

    @Autowired
    MockMvc mvc;
    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void aTracedExperimentsTraceDownloadsAsPerfettoJson() throws Exception {
        String id = submitAndWait(TRACED);
        String csv = mvc.perform(get("/api/v1/experiments/{id}/trace", id))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("text/csv"))
                .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8);
        assertThat(mvc.perform(get("/api/v1/experiments/{id}/trace?format=csv", id)).andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8)).isEqualTo(csv);

        byte[] body = mvc.perform(get("/api/v1/experiments/{id}/trace.perfetto.json", id))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(header().string("Content-Disposition", "attachment; filename=\"" + id + ".perfetto.json\""))
                .andReturn().getResponse().getContentAsByteArray();
        PerfettoChecks.Contents file = PerfettoChecks.check(body);

        List<String> rows = csv.lines().skip(1).toList();
        long runs = rows.stream().filter(r -> r.split(",", -1)[2].equals("switch") && !r.split(",", -1)[3].isEmpty()).count();
        long migrations = rows.stream().filter(r -> r.split(",", -1)[2].equals("migrate")).count();
        assertThat(runs).isPositive();
        assertThat(file.slices()).hasSize((int) runs);
        assertThat(file.flows()).isEqualTo(migrations);
        JsonNode result = json.readTree(mvc.perform(get("/api/v1/experiments/{id}/results", id))
                .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8));
        assertThat(file.slices().stream().map(s -> s.ts().add(s.dur())).max(java.math.BigDecimal::compareTo).orElseThrow())
                .as("runs still open close at the simulated end")
                .isEqualByComparingTo(PerfettoChecks.micros(result.path("summary").path("simulatedNanos").asLong()));
        assertThat(mvc.perform(get("/api/v1/experiments/{id}/report", id).accept(MediaType.TEXT_HTML))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8))
                .as("the report links the download").contains("/api/v1/experiments/" + id + "/trace.perfetto.json");
        assertThat(file.root().path("traceEvents").valueStream()
                .filter(e -> e.path("name").asString().equals("process_name"))
                .map(e -> e.path("args").path("name").asString())).containsExactly("host: perfetto api");
    }

    @Test
    void theCsvOperationRefusesAnyOtherFormatNamingThePerfettoOperation() throws Exception {
        String id = submitAndWait(TRACED);
        for (String format : List.of("perfetto", "json")) {
            mvc.perform(get("/api/v1/experiments/{id}/trace?format={f}", id, format))
                    .andExpect(status().isBadRequest())
                    .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                    .andExpect(jsonPath("$.errors[0].parameter").value("format"))
                    .andExpect(jsonPath("$.errors[0].message").value(org.hamcrest.Matchers.containsString(
                            "/api/v1/experiments/" + id + "/trace.perfetto.json")));
        }
        mvc.perform(get("/api/v1/experiments/{id}/trace", id).accept(MediaType.APPLICATION_JSON))
                .andExpect(status().isNotAcceptable());
    }

    @Test
    void anExperimentWithoutTraceHasNoPerfettoTraceEither() throws Exception {
        String id = submitAndWait(TRACED.replace("\"trace\": {\"enabled\": true},", ""));
        mvc.perform(get("/api/v1/experiments/{id}/trace.perfetto.json", id))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/trace-not-available"));
        assertThat(mvc.perform(get("/api/v1/experiments/{id}/report", id).accept(MediaType.TEXT_HTML))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8))
                .as("no trace, no link").doesNotContain("trace.perfetto.json");
    }

    private String submitAndWait(String body) throws Exception {
        JsonNode submitted = json.readTree(mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isAccepted()).andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8));
        String id = submitted.path("id").asString();
        AwaitSuccess.of(mvc, id);
        return id;
    }
}

package io.schedlab.traceimport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.schedlab.api.AwaitSuccess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** POST /api/v1/experiments:import and GET /api/v1/experiments/{id}/replay through the queue and the engine. */
@SpringBootTest(properties = {"spring.datasource.url=jdbc:h2:mem:trace-import-api;DB_CLOSE_DELAY=-1",
        "schedlab.data-dir=target/test-data/trace-import-api"})
@AutoConfigureMockMvc
class TraceImportApiTest {

    static final Path FILES = Path.of("src/test/resources/traceimport");

    @Autowired
    MockMvc mvc;
    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void aPerfScriptTextBecomesAnExperimentThatRunsAndReportsItsKolmogorovSmirnovDistance() throws Exception {
        JsonNode answer = json.readTree(mvc.perform(post("/api/v1/experiments:import?format=perf-script&submit=true")
                        .contentType(MediaType.TEXT_PLAIN).content(Files.readAllBytes(FILES.resolve("perf-script.txt"))))
                .andExpect(status().isAccepted())
                .andExpect(header().string("Location", Matchers.startsWith("/api/v1/experiments/")))
                .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8));
        assertThat(answer.path("recorded").path("cpus").asInt()).isEqualTo(2);
        assertThat(answer.path("recorded").path("threads").asInt()).isEqualTo(3);
        assertThat(answer.path("experiment").path("scheduler").path("policy").asString()).isEqualTo("cfs");
        String id = answer.path("submitted").path("id").asString();
        waitForSuccess(id);
        JsonNode replay = replay(id);
        assertThat(replay.path("threads")).hasSize(3);
        assertThat(replay.path("threads").get(0).path("recordedName").asString()).isEqualTo("worker-101");
        assertThat(replay.path("runs").path("recordedCount").asInt()).isEqualTo(7);
        assertThat(replay.path("runs").path("simulatedCount").asInt()).isPositive();
        assertThat(replay.path("runs").path("ks").asDouble()).isBetween(0.0, 1.0);
        assertThat(replay.path("waits").path("ks").isNumber()).isTrue();
    }

    @Test
    void aXentraceFileBecomesAnExperimentThatRunsAndReportsItsKolmogorovSmirnovDistance() throws Exception {
        JsonNode answer = json.readTree(mvc.perform(post("/api/v1/experiments:import")
                        .param("format", "xentrace").param("cpuHz", "1000000000").param("submit", "true")
                        .param("scheduler", "credit")
                        .contentType(MediaType.APPLICATION_OCTET_STREAM)
                        .content(Files.readAllBytes(FILES.resolve("xentrace-sched.bin"))))
                .andExpect(status().isAccepted())
                .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8));
        assertThat(answer.path("recorded").path("lostRecords").asInt()).isEqualTo(1);
        assertThat(answer.path("experiment").path("vms").valueStream().map(v -> v.path("name").asString()))
                .containsExactly("d1", "d2");
        String id = answer.path("submitted").path("id").asString();
        waitForSuccess(id);
        JsonNode replay = replay(id);
        assertThat(replay.path("threads").valueStream().map(t -> t.path("recordedName").asString()))
                .containsExactly("d1v0", "d1v1", "d2v0");
        assertThat(replay.path("runs").path("recordedCount").asInt()).isEqualTo(5);
        assertThat(replay.path("runs").path("ks").asDouble()).isBetween(0.0, 1.0);
    }

    @Test
    void withoutSubmitTheAnswerIsAnExperimentToEditAndPost() throws Exception {
        JsonNode answer = json.readTree(mvc.perform(post("/api/v1/experiments:import?format=trace-cmd&groupBy=single&scheduler=eevdf&name=edited")
                        .contentType(MediaType.TEXT_PLAIN)
                        .content(Files.readAllBytes(FILES.resolve("trace-cmd-report.txt"))))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.submitted").doesNotExist())
                .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8));
        JsonNode experiment = answer.path("experiment");
        assertThat(experiment.path("host").path("coresPerSocket").asInt()).isEqualTo(4);
        assertThat(experiment.path("vms")).hasSize(1);
        assertThat(experiment.path("vms").get(0).path("vcpus").asInt()).isEqualTo(3);
        mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON)
                        .content(json.writeValueAsString(experiment)))
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.name").value("edited"));
    }

    @Test
    void unreadableFilesAre422NamingTheLineOrByte() throws Exception {
        mvc.perform(post("/api/v1/experiments:import?format=perf-script").contentType(MediaType.TEXT_PLAIN)
                        .content(Files.readAllBytes(FILES.resolve("bad-missing-switch.txt"))))
                .andExpect(status().isUnprocessableContent())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.errors[0].pointer").value(""))
                .andExpect(jsonPath("$.errors[0].message").value(Matchers.startsWith("the perf-script file, line 7:")));
        byte[] whole = Files.readAllBytes(FILES.resolve("xentrace-sched.bin"));
        mvc.perform(post("/api/v1/experiments:import?format=xentrace").contentType(MediaType.APPLICATION_OCTET_STREAM)
                        .content(Arrays.copyOf(whole, whole.length - 3)))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.errors[0].message").value(Matchers.containsString("byte " + (whole.length - 20)
                        + ": truncated record")));
        mvc.perform(post("/api/v1/experiments:import?format=perf-script&scheduler=no-such-policy")
                        .contentType(MediaType.TEXT_PLAIN).content(Files.readAllBytes(FILES.resolve("perf-script.txt"))))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.errors[0].pointer").value("/scheduler/policy"));
    }

    @Test
    void badParametersAre400NamingTheParameter() throws Exception {
        byte[] perf = Files.readAllBytes(FILES.resolve("perf-script.txt"));
        mvc.perform(post("/api/v1/experiments:import?format=ftrace").contentType(MediaType.TEXT_PLAIN).content(perf))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].parameter").value("format"));
        mvc.perform(post("/api/v1/experiments:import?format=perf-script&groupBy=domain").contentType(MediaType.TEXT_PLAIN)
                        .content(perf))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].parameter").value("groupBy"));
        mvc.perform(post("/api/v1/experiments:import?format=xentrace&cpuHz=0").contentType(MediaType.APPLICATION_OCTET_STREAM)
                        .content(perf))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].parameter").value("cpuHz"));
    }

    @Test
    void anExperimentNotImportedHasNoReplayToCompare() throws Exception {
        JsonNode submitted = json.readTree(mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON)
                        .content("""
                                {"durationSeconds": 0.01, "host": {"sockets": 1, "coresPerSocket": 1},
                                 "scheduler": {"policy": "credit"}, "trace": {"enabled": true},
                                 "vms": [{"name": "a", "vcpus": 1, "workload": {"type": "cpu-loop"}}]}
                                """))
                .andExpect(status().isAccepted()).andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8));
        String id = submitted.path("id").asString();
        waitForSuccess(id);
        mvc.perform(get("/api/v1/experiments/{id}/replay", id))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/trace-not-available"));
    }

    private JsonNode replay(String id) throws Exception {
        return json.readTree(mvc.perform(get("/api/v1/experiments/{id}/replay", id))
                .andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8));
    }

    private void waitForSuccess(String id) throws Exception {
        AwaitSuccess.of(mvc, id);
    }
}

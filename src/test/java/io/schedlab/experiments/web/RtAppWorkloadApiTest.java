package io.schedlab.experiments.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.schedlab.engine.workloads.RtAppFiles;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** An rt-app file submitted through POST /api/v1/experiments: it runs, and its timer periods are in the result. */
@SpringBootTest(properties = {"spring.datasource.url=jdbc:h2:mem:rt-app-api;DB_CLOSE_DELAY=-1",
        "schedlab.data-dir=target/test-data/rt-app-api"})
@AutoConfigureMockMvc
class RtAppWorkloadApiTest {

    @Autowired
    MockMvc mvc;
    private final JsonMapper json = JsonMapper.builder().build();

    /** An experiment of one 4-vCPU VM on 4 pCPUs running {@code document} (an object or a string). */
    private String experiment(Object document) {
        ObjectNode spec = (ObjectNode) json.readTree("""
                {"name": "rt-app", "seed": 5, "durationSeconds": 5, "stopWhen": "all-complete",
                 "host": {"sockets": 1, "coresPerSocket": 4}, "scheduler": {"policy": "credit2"},
                 "vms": [{"name": "rt", "vcpus": 4, "workload": {"type": "rt-app", "params": {}}}]}""");
        ((ObjectNode) spec.path("vms").path(0).path("workload").path("params")).set("json", json.valueToTree(document));
        return spec.toString();
    }

    private JsonNode send(String body, int expectedStatus) throws Exception {
        return json.readTree(mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON)
                .content(body)).andExpect(status().is(expectedStatus)).andReturn().getResponse()
                .getContentAsString(StandardCharsets.UTF_8));
    }

    private JsonNode resultOf(String id) throws Exception {
        Instant giveUp = Instant.now().plus(Duration.ofSeconds(60));
        String status = "QUEUED";
        while (!status.equals("SUCCEEDED")) {
            assertThat(status).as("experiment " + id).isIn("QUEUED", "RUNNING");
            assertThat(Instant.now()).as("experiment " + id + " done within 60 s").isBefore(giveUp);
            Thread.sleep(25);
            status = json.readTree(mvc.perform(get("/api/v1/experiments/{id}", id)).andReturn().getResponse()
                    .getContentAsString(StandardCharsets.UTF_8)).path("status").asString();
        }
        return json.readTree(mvc.perform(get("/api/v1/experiments/{id}/results", id)).andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8));
    }

    @Test
    void theTimerMutexLoopsFileRunsAndItsPeriodsShowInTheResult() throws Exception {
        JsonNode asObject = resultOf(send(experiment(RtAppFiles.object("timer-mutex-loops.json")), 202)
                .path("id").asString());
        JsonNode vm = asObject.path("vms").path(0);
        assertThat(vm.path("workloadType").asString()).isEqualTo("rt-app");
        assertThat(vm.path("headline").path("unit").asString()).isEqualTo("us");
        JsonNode d = vm.path("workloadDetails");
        assertThat(d.path("periodic.activations").asDouble()).isEqualTo(120.0);
        assertThat(d.path("periodic.periodMeanUs").asDouble()).isCloseTo(10_000.0, within(1.0));
        assertThat(d.path("periodic.missedTimers").asDouble()).isZero();
        assertThat(d.path("worker-0.phaseLoops").asDouble()).isEqualTo(36.0);
        assertThat(d.path("worker-1.phaseLoops").asDouble()).isEqualTo(36.0);
        assertThat(vm.path("completionNanos").asLong() - vm.path("startNanos").asLong())
                .isCloseTo(1_200_000_000L, within(100_000L));

        // the same file as a string gives the same run
        JsonNode asText = resultOf(send(experiment(RtAppFiles.text("timer-mutex-loops.json")), 202)
                .path("id").asString());
        assertThat(asText.path("vms").path(0).path("workloadDetails")).isEqualTo(d);
    }

    @Test
    void aRefusedFeatureIs422ProblemJsonWhosePointerNamesTheKey() throws Exception {
        String body = experiment(RtAppFiles.object("refused/mem.json"));
        String problem = mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isUnprocessableContent())
                .andExpect(content().contentTypeCompatibleWith("application/problem+json"))
                .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8);
        JsonNode errors = json.readTree(problem).path("errors");
        assertThat(errors.size()).isEqualTo(1);
        assertThat(errors.path(0).path("pointer").asString())
                .isEqualTo("/vms/0/workload/params/json/tasks/thread0/phases/p1/mem");
        assertThat(errors.path(0).path("message").asString()).contains("'mem' is not modelled");
        // a document over the size limit names the limit
        String big = "{\"tasks\": {\"t\": {\"run\": 10, \"sleep\": 10}}, \"global\": {\"logdir\": \""
                + "x".repeat(262_144) + "\"}}";
        JsonNode tooBig = send(experiment(RtAppFiles.json(big)), 422).path("errors").path(0);
        assertThat(tooBig.path("pointer").asString()).isEqualTo("/vms/0/workload/params/json");
        assertThat(tooBig.path("message").asString()).contains("limit 262144");
    }

    @Test
    void theWorkloadCatalogListsRtAppWithItsJsonParameter() throws Exception {
        JsonNode workloads = json.readTree(mvc.perform(get("/api/v1/workloads")).andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString(StandardCharsets.UTF_8));
        JsonNode rtApp = workloads.valueStream().filter(w -> w.path("type").asString().equals("rt-app")).findFirst()
                .orElseThrow();
        assertThat(rtApp.path("parameters").path(0).path("name").asString()).isEqualTo("json");
        assertThat(rtApp.path("parameters").path(0).path("type").asString()).isEqualTo("json");
    }
}

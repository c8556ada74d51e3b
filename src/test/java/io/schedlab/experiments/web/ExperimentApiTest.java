package io.schedlab.experiments.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.micrometer.core.instrument.MeterRegistry;
import io.schedlab.engine.Engine;
import io.schedlab.engine.Validation;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.experiments.JobQueue;
import io.schedlab.experiments.LimitsProperties;
import io.schedlab.experiments.status.ExperimentStatus;
import io.schedlab.experiments.persistence.ExperimentFilter;
import io.schedlab.experiments.persistence.ExperimentRepository;
import io.schedlab.experiments.persistence.ExperimentRow;
import io.schedlab.experiments.persistence.NewExperiment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.Answers;
import org.mockito.ArgumentCaptor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.transaction.PlatformTransactionManager;

/** Web slice: every endpoint and every problem kind, with the engine, repository and queue mocked. */
@WebMvcTest(properties = {"schedlab.limits.max-body-bytes=2048", "schedlab.jobs.max-queued=5",
        "schedlab.data-dir=target/test-data/web-slice", "schedlab.limits.queue-depth-cache=0s",
        "schedlab.limits.event-poll-interval=20ms", "schedlab.limits.max-event-streams=2"})
@Import({ExperimentService.class, ProgressStreams.class, RealValidatorSlice.Meters.class, ExperimentApiTest.Config.class})
class ExperimentApiTest {

    @TestConfiguration
    @EnableConfigurationProperties(LimitsProperties.class)
    static class Config {
    }

    static final String BODY = "{\n  \"name\": \"seed 001\", \"labels\": {\"team\": \"lab\"},\n  \"scheduler\": {\"policy\": \"credit\"} }";

    @Autowired
    MockMvc mvc;
    @Autowired
    MeterRegistry meters;
    @Autowired
    ProgressStreams streams;
    /** The sweeps API's controllers are in every web slice; not under test here. */
    @MockitoBean
    io.schedlab.sweeps.SweepService sweeps;
    @MockitoBean(answers = Answers.RETURNS_DEEP_STUBS)
    Engine engine;
    @MockitoBean
    ExperimentRepository repository;
    @MockitoBean
    JobQueue jobQueue;
    @MockitoBean
    PlatformTransactionManager transactions;

    final ExperimentSpec normalized = new ExperimentSpec("seed 001", Map.of("team", "lab"), 1L, 60.0,
            ExperimentSpec.StopCondition.DURATION, null, new SchedulerSpec("credit", Map.of("tsliceMs", 30)), Map.of(),
            List.of(), List.of(), null);

    @BeforeEach
    void engineAcceptsEverything() {
        when(engine.validate(any(), any())).thenReturn(new Validation(normalized, List.of()));
    }

    @Test
    void submitStoresTheBodyExactlyEnqueuesAndAnswers202WithLocation() throws Exception {
        String id = mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON).content(BODY))
                .andExpect(status().isAccepted())
                .andExpect(header().string("Location", startsWith("/api/v1/experiments/")))
                .andExpect(jsonPath("$.status").value("QUEUED"))
                .andExpect(jsonPath("$.policy").value("credit"))
                .andExpect(jsonPath("$.labels.team").value("lab"))
                .andExpect(jsonPath("$.links.results", containsString("/results")))
                .andReturn().getResponse().getHeader("Location").substring("/api/v1/experiments/".length());

        @SuppressWarnings("unchecked")
        ArgumentCaptor<List<NewExperiment>> saved = ArgumentCaptor.forClass(List.class);
        verify(repository).insertQueuedAll(saved.capture());
        assertThat(saved.getValue()).singleElement().satisfies(e -> {
            assertThat(e.inputRaw()).isEqualTo(BODY);
            assertThat(e.inputNormalized()).contains("\"tsliceMs\":30");
            assertThat(e.id()).hasToString(id);
        });
        verify(jobQueue).enqueueAll(List.of(UUID.fromString(id)));
        assertThat(meters.get("schedlab.experiments.submitted").tag("policy", "credit").counter().count()).isEqualTo(1);
    }

    @Test
    void validateReturnsTheNormalizedInputAndTheRemovedDryRunStoresNothing() throws Exception {
        // submit has one success answer; the old dryRun is refused, never taken as a real submission
        mvc.perform(post("/api/v1/experiments?dryRun=true").contentType(MediaType.APPLICATION_JSON).content(BODY))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].parameter").value("dryRun"))
                .andExpect(jsonPath("$.errors[0].message", containsString(":validate")));
        mvc.perform(post("/api/v1/experiments:validate").contentType(MediaType.APPLICATION_JSON).content(BODY))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.normalized.seed").value(1));
        verify(repository, never()).insertQueuedAll(any());
        verify(jobQueue, never()).enqueueAll(any());
    }

    @Test
    void malformedJsonIs400WithLocation() throws Exception {
        mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON).content("{\"name\": \"x\",\n \"seed\": }"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/malformed-request"))
                .andExpect(jsonPath("$.status").value(400))
                .andExpect(jsonPath("$.errors[0].pointer").value("/seed"))
                .andExpect(jsonPath("$.errors[0].message", containsString("line 2")));
    }

    @Test
    void wrongTypesAre400NamingTheField() throws Exception {
        expect400("{\"seed\": \"abc\"}", "/seed", "integer");
        expect400("{\"vms\": [{\"name\": \"vm1\"}, {\"vcpus\": 1.5}]}", "/vms/1/vcpus", "integer");
        expect400("{\"vms\": [{\"vcpus\": \"2\"}]}", "/vms/0/vcpus", "integer");
        expect400("{\"vms\": {\"vcpus\": 2}}", "/vms", "array");
        expect400("{\"vms\": [{\"vcpus\": 99999999999}]}", "/vms/0/vcpus", "out of range");
        expect400("{\"scheduler\": {\"polcy\": \"credit\"}}", "/scheduler/polcy", "unknown field 'polcy'");
        expect400("{\"seed\": 1, \"seed\": 2}", "/seed", "Duplicate");
        expect400("[1, 2]", "", "object");
        expect400("null", "", "null");
        expect400("{} {}", "", "");
        expect400("   ", "", "empty");
    }

    @Test
    void emptyBodyIs400AndMissingContentTypeIs415() throws Exception {
        mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/malformed-request"))
                .andExpect(jsonPath("$.errors[0].pointer").value(""))
                .andExpect(jsonPath("$.errors[0].message", containsString("empty")));
        mvc.perform(post("/api/v1/experiments:validate").content(BODY))
                .andExpect(status().isUnsupportedMediaType())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/unsupported-media-type"))
                .andExpect(jsonPath("$.detail").value("a request body needs Content-Type: application/json"));
    }

    @Test
    void unacceptableAcceptIs406WithoutAnAcceptResponseHeader() throws Exception {
        mvc.perform(get("/api/v1/experiments").accept(MediaType.valueOf("application/xml")))
                .andExpect(status().isNotAcceptable())
                .andExpect(header().doesNotExist("Accept"));
    }

    @Test
    void theListIsAlsoTidyCsvOneRowPerExperimentOnItsOwnPath() throws Exception {
        UUID id = UUID.randomUUID();
        Instant now = Instant.parse("2026-11-30T06:00:00Z");
        when(repository.findRows(any())).thenReturn(List.of(new ExperimentRow(id, "a, \"quoted\" name", "{}", "credit",
                ExperimentStatus.QUEUED, 0.0, 0, now, null, null, null, false, "0.2.0", null, null, null, null, null)));
        when(repository.countRows(any())).thenReturn(1L);
        String expected = String.join(",", ExperimentCsv.COLUMNS) + "\n" + id
                + ",\"a, \"\"quoted\"\" name\",credit,QUEUED,0.0,0,2026-11-30T06:00:00Z,,,,,,,,\n";
        mvc.perform(get("/api/v1/experiments.csv"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("text/csv"))
                .andExpect(content().string(expected));
        // what a generated client sends for it (the first JSON-like type: its errors') still gets the CSV
        mvc.perform(get("/api/v1/experiments.csv").accept(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("text/csv"))
                .andExpect(content().string(expected));
        // the JSON operation answers JSON only, and says where the CSV went
        mvc.perform(get("/api/v1/experiments").accept(MediaType.valueOf("text/csv")))
                .andExpect(status().isNotAcceptable());
        mvc.perform(get("/api/v1/experiments?format=csv"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].parameter").value("format"))
                .andExpect(jsonPath("$.errors[0].message", containsString("/api/v1/experiments.csv")));
        mvc.perform(get("/api/v1/experiments?format=json")).andExpect(status().isOk())
                .andExpect(jsonPath("$.items[0].id").value(id.toString()));
    }

    @Test
    void bodyThatIsNotUtf8Is400() throws Exception {
        mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON)
                        .content(new byte[] {'{', '"', 'n', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'}))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].message", containsString("UTF-8")));
    }

    private void expect400(String body, String pointer, String messagePart) throws Exception {
        mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/malformed-request"))
                .andExpect(jsonPath("$.errors[0].pointer").value(pointer))
                .andExpect(jsonPath("$.errors[0].message", containsString(messagePart)));
    }

    @Test
    void semanticViolationsAre422WithEveryPointer() throws Exception {
        when(engine.validate(any(), any())).thenReturn(new Validation(null, List.of(
                new Violation("/vms/0/hardAffinity/0", "pCPU 7 does not exist (host has 2)"),
                new Violation("/scheduler/policy", "unknown policy 'foo'"))));
        mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON).content(BODY))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/invalid-experiment"))
                .andExpect(jsonPath("$.errors", hasSize(2)))
                .andExpect(jsonPath("$.errors[0].pointer").value("/vms/0/hardAffinity/0"))
                .andExpect(jsonPath("$.errors[1].message").value("unknown policy 'foo'"));
        verify(repository, never()).insertQueuedAll(any());
    }

    @Test
    void bodyOverTheLimitIs413BeforeParsing() throws Exception {
        String big = "{\"name\": \"" + "x".repeat(3000) + "\"}";
        mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON).content(big))
                .andExpect(status().isContentTooLarge())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/payload-too-large"))
                .andExpect(jsonPath("$.limit").value(2048));
        verify(engine, never()).validate(any(), any());
    }

    @Test
    void wrongMediaTypeIs415() throws Exception {
        mvc.perform(post("/api/v1/experiments").contentType(MediaType.TEXT_PLAIN).content(BODY))
                .andExpect(status().isUnsupportedMediaType())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/unsupported-media-type"));
    }

    @Test
    void fullQueueIs429WithRetryAfterAndNothingStored() throws Exception {
        when(jobQueue.depth()).thenReturn(5L);
        mvc.perform(post("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON).content(BODY))
                .andExpect(status().isTooManyRequests())
                .andExpect(header().string("Retry-After", "5"))
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/queue-full"));
        verify(repository, never()).insertQueuedAll(any());
    }

    @Test
    void getReturnsStatusProgressAndSummary() throws Exception {
        UUID id = UUID.randomUUID();
        Instant created = Instant.parse("2026-11-30T06:00:00Z");
        when(repository.findRow(id)).thenReturn(Optional.of(new ExperimentRow(id, "n", "{\"a\":\"1\"}", "credit",
                ExperimentStatus.SUCCEEDED, 1.0, 2_500_000_000L, created, created.plusSeconds(1), created.plusSeconds(2),
                null, false, "0.1.0", 0.75, 1234L, 56L, 7L, 0.98)));
        mvc.perform(get("/api/v1/experiments/{id}", id))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.id").value(id.toString()))
                .andExpect(jsonPath("$.status").value("SUCCEEDED"))
                .andExpect(jsonPath("$.createdAt").value("2026-11-30T06:00:00Z"))
                .andExpect(jsonPath("$.simulatedNanos").value(2_500_000_000L))
                .andExpect(jsonPath("$.wallNanos").value(750_000_000L))
                .andExpect(jsonPath("$.summary.events").value(1234))
                .andExpect(jsonPath("$.summary.contextSwitches").value(56))
                .andExpect(jsonPath("$.summary.jainIndex").value(0.98))
                .andExpect(jsonPath("$.labels.a").value("1"));
    }

    @Test
    void unknownExperimentIs404AndBadIdIs400() throws Exception {
        UUID id = UUID.randomUUID();
        for (String path : List.of("/api/v1/experiments/{id}", "/api/v1/experiments/{id}/results",
                "/api/v1/experiments/{id}/trace", "/api/v1/experiments/{id}/input")) {
            mvc.perform(get(path, id))
                    .andExpect(status().isNotFound())
                    .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/not-found"))
                    .andExpect(jsonPath("$.detail", containsString(id.toString())));
        }
        mvc.perform(post("/api/v1/experiments/{id}/cancel", id)).andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/experiments/not-a-uuid"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].parameter").value("id"));
        mvc.perform(get("/api/v1/nothing-here"))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/not-found"));
    }

    @Test
    void wrongMethodIs405Problem() throws Exception {
        mvc.perform(put("/api/v1/experiments").contentType(MediaType.APPLICATION_JSON).content(BODY))
                .andExpect(status().isMethodNotAllowed())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/method-not-allowed"));
    }

    @Test
    void cancelQueuedOrRunningIs202AndFinishedIs409() throws Exception {
        UUID id = UUID.randomUUID();
        when(repository.finish(eq(id), any(), eq(ExperimentStatus.CANCELLED), any(), any())).thenReturn(1);
        when(repository.findRow(id)).thenReturn(Optional.of(row(id, ExperimentStatus.CANCELLED)));
        mvc.perform(post("/api/v1/experiments/{id}/cancel", id))
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.status").value("CANCELLED"));
        verify(jobQueue).discard(id);

        UUID running = UUID.randomUUID();
        when(repository.requestCancel(running, ExperimentStatus.RUNNING)).thenReturn(1);
        when(repository.findRow(running)).thenReturn(Optional.of(row(running, ExperimentStatus.RUNNING)));
        mvc.perform(post("/api/v1/experiments/{id}/cancel", running)).andExpect(status().isAccepted());
        verify(repository).requestCancel(running, ExperimentStatus.RUNNING);

        UUID done = UUID.randomUUID();
        when(repository.findStatus(done)).thenReturn(Optional.of(ExperimentStatus.SUCCEEDED));
        mvc.perform(post("/api/v1/experiments/{id}/cancel", done))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/conflict"))
                .andExpect(jsonPath("$.detail", containsString("SUCCEEDED")));
    }

    @Test
    void deleteRemovesTheExperimentWhateverItsStatusAnd404sWhenThereIsNone() throws Exception {
        UUID done = UUID.randomUUID();
        when(repository.delete(done)).thenReturn(1);
        mvc.perform(delete("/api/v1/experiments/{id}", done)).andExpect(status().isNoContent());
        verify(jobQueue).discard(done);
        verify(repository).delete(done);

        UUID missing = UUID.randomUUID();
        mvc.perform(delete("/api/v1/experiments/{id}", missing))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/not-found"));
    }

    @Test
    void aCancelledOrFailedRunServesItsPartialResultAndOneThatNeverRanHasNone() throws Exception {
        UUID cancelled = UUID.randomUUID();
        Instant now = Instant.now();
        when(repository.findRow(cancelled)).thenReturn(Optional.of(new ExperimentRow(cancelled, "n", "{}", "credit",
                ExperimentStatus.CANCELLED, 0.4, 4_000_000_000L, now, now, now, null, true, "0.2.0", 0.1, 77L, 5L, 0L,
                1.0)));
        when(repository.findResult(cancelled)).thenReturn(Optional.of("{\"partial\":true,\"summary\":{\"events\":77}}"));
        mvc.perform(get("/api/v1/experiments/{id}/results", cancelled))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.partial").value(true));
        mvc.perform(get("/api/v1/experiments/{id}", cancelled))
                .andExpect(jsonPath("$.summary.events").value(77));

        UUID neverRan = UUID.randomUUID();
        when(repository.findRow(neverRan)).thenReturn(Optional.of(row(neverRan, ExperimentStatus.CANCELLED)));
        mvc.perform(get("/api/v1/experiments/{id}/results", neverRan))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/no-results"))
                .andExpect(jsonPath("$.detail", containsString("before it ran")));
    }

    @Test
    void resultsAre409UntilSucceededThenTheStoredDocument() throws Exception {
        UUID id = UUID.randomUUID();
        when(repository.findRow(id)).thenReturn(Optional.of(row(id, ExperimentStatus.RUNNING)));
        mvc.perform(get("/api/v1/experiments/{id}/results", id))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/results-not-ready"))
                .andExpect(jsonPath("$.experimentStatus").value("RUNNING"));
        mvc.perform(get("/api/v1/experiments/{id}/trace", id)).andExpect(status().isConflict());

        when(repository.findRow(id)).thenReturn(Optional.of(row(id, ExperimentStatus.SUCCEEDED)));
        when(repository.findResult(id)).thenReturn(Optional.of("{\"engineVersion\":\"0.1.0\",\"summary\":{\"events\":9}}"));
        mvc.perform(get("/api/v1/experiments/{id}/results", id))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.summary.events").value(9));
    }

    @Test
    void traceIsServedAsCsvWhenTheFileExists() throws Exception {
        UUID id = UUID.randomUUID();
        when(repository.findRow(id)).thenReturn(Optional.of(row(id, ExperimentStatus.SUCCEEDED)));
        mvc.perform(get("/api/v1/experiments/{id}/trace", id))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/trace-not-available"));

        Path dir = Path.of("target/test-data/web-slice/traces");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(id + ".csv"), "time_ns,pcpu,event,vm,vcpu\n10,0,switch,vm1,0\n");
        mvc.perform(get("/api/v1/experiments/{id}/trace", id))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("text/csv"))
                .andExpect(content().string(containsString("10,0,switch,vm1,0")));
    }

    @Test
    void inputReturnsRawTextAndNormalizedSpec() throws Exception {
        UUID id = UUID.randomUUID();
        when(repository.findInputRaw(id)).thenReturn(Optional.of(BODY));
        when(repository.findInputNormalized(id)).thenReturn(Optional.of("{\"name\":\"n\",\"seed\":3}"));
        mvc.perform(get("/api/v1/experiments/{id}/input", id))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.raw").value(BODY))
                .andExpect(jsonPath("$.normalized.seed").value(3));
    }

    @Test
    void listPassesFiltersAndBoundsPageSize() throws Exception {
        UUID id = UUID.randomUUID();
        when(repository.findRows(any())).thenReturn(List.of(row(id, ExperimentStatus.QUEUED)));
        when(repository.countRows(any())).thenReturn(41L);
        mvc.perform(get("/api/v1/experiments?page=2&size=20&status=queued&name=seed&label=team:lab&label=seed:001"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items[0].id").value(id.toString()))
                .andExpect(jsonPath("$.totalItems").value(41))
                .andExpect(jsonPath("$.totalPages").value(3));
        ArgumentCaptor<ExperimentFilter> filter = ArgumentCaptor.forClass(ExperimentFilter.class);
        verify(repository).findRows(filter.capture());
        assertThat(filter.getValue()).isEqualTo(new ExperimentFilter(ExperimentStatus.QUEUED, "seed",
                Map.of("team", "lab", "seed", "001"), 2, 20));

        // a label value with a comma is one filter, not split into "t:a" and "b"
        mvc.perform(get("/api/v1/experiments").param("label", "t:a,b")).andExpect(status().isOk());
        verify(repository, org.mockito.Mockito.times(2)).findRows(filter.capture());
        assertThat(filter.getValue().labels()).isEqualTo(Map.of("t", "a,b"));
        mvc.perform(get("/api/v1/experiments").param("label", "t:a,b", "u:c")).andExpect(status().isOk());
        verify(repository, org.mockito.Mockito.times(3)).findRows(filter.capture());
        assertThat(filter.getValue().labels()).isEqualTo(Map.of("t", "a,b", "u", "c"));

        expectBadParameter("/api/v1/experiments?size=101", "size");
        expectBadParameter("/api/v1/experiments?size=0", "size");
        expectBadParameter("/api/v1/experiments?page=-1", "page");
        expectBadParameter("/api/v1/experiments?page=abc", "page");
        expectBadParameter("/api/v1/experiments?status=DONE", "status");
        expectBadParameter("/api/v1/experiments?label=novalue", "label");
        expectBadParameter("/api/v1/experiments?" + "label=a:b&".repeat(11), "label");
    }

    private void expectBadParameter(String url, String parameter) throws Exception {
        mvc.perform(get(url))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/malformed-request"))
                .andExpect(jsonPath("$.errors[0].parameter").value(parameter));
    }

    @Test
    void schedulersAndWorkloadsComeFromTheRegistry() throws Exception {
        Registry registry = new Registry()
                .register(new PolicyDescriptor("credit", "Xen credit", List.of(ParameterSpec.integer("tsliceMs", 30, 1,
                        1000, "ms", "time slice", "xen/common/sched/credit.c CSCHED_DEFAULT_TSLICE_MS")), p -> null))
                .register(new WorkloadDescriptor("cpu-loop", "busy loop", "work-seconds/s", List.of(), p -> null));
        when(engine.registry()).thenReturn(registry);
        mvc.perform(get("/api/v1/schedulers"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[0].name").value("credit"))
                .andExpect(jsonPath("$[0].hypervisor").value("xen"))
                .andExpect(jsonPath("$[0].parameters[0].name").value("tsliceMs"))
                .andExpect(jsonPath("$[0].parameters[0].type").value("integer"))
                .andExpect(jsonPath("$[0].parameters[0].defaultValue").value(30))
                .andExpect(jsonPath("$[0].parameters[0].max").value(1000.0))
                .andExpect(jsonPath("$[0].parameters[0].unit").value("ms"))
                .andExpect(jsonPath("$[0].parameters[0].source", containsString("credit.c")));
        mvc.perform(get("/api/v1/workloads"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[0].type").value("cpu-loop"))
                .andExpect(jsonPath("$[0].unit").value("work-seconds/s"));
    }

    @Test
    void eventsStreamEachChangeUntilFinished() throws Exception {
        UUID id = UUID.randomUUID();
        Instant now = Instant.now();
        ExperimentRow running = new ExperimentRow(id, "n", "{}", "static", ExperimentStatus.RUNNING, 0.5, 3_000_000_000L,
                now, now, null, null, false, "0.1.0", null, null, null, null, null);
        when(repository.findRow(id)).thenReturn(Optional.of(row(id, ExperimentStatus.QUEUED)), Optional.of(running),
                Optional.of(running), Optional.of(running), Optional.of(row(id, ExperimentStatus.SUCCEEDED)));
        org.springframework.test.web.servlet.MvcResult result = mvc.perform(get("/api/v1/experiments/{id}/events", id)
                        .accept(MediaType.TEXT_EVENT_STREAM))
                .andExpect(org.springframework.test.web.servlet.result.MockMvcResultMatchers.request().asyncStarted())
                .andReturn();
        long deadline = System.nanoTime() + 10_000_000_000L;
        // wait for the final event's data, not just its id line (the emitter writes them separately)
        while (!result.getResponse().getContentAsString().contains("\"status\":\"SUCCEEDED\"")
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        String stream = result.getResponse().getContentAsString();
        assertThat(stream.split("event:status", -1)).as(stream).hasSize(4); // QUEUED, RUNNING (once, unchanged after), SUCCEEDED
        assertThat(stream.indexOf("\"QUEUED\"")).as(stream).isLessThan(stream.indexOf("\"RUNNING\""));
        assertThat(stream.indexOf("\"RUNNING\"")).as(stream).isLessThan(stream.indexOf("\"SUCCEEDED\""));
        assertThat(stream).contains("\"simulatedNanos\":3000000000");
        assertThat(result.getResponse().getContentType()).startsWith("text/event-stream");
    }

    @Test
    void eventsOfAnUnknownExperimentAre404AndOpenStreamsAreBounded() throws Exception {
        mvc.perform(get("/api/v1/experiments/{id}/events", UUID.randomUUID()).accept(MediaType.TEXT_EVENT_STREAM))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/not-found"));
        UUID id = UUID.randomUUID();
        when(repository.findRow(id)).thenReturn(Optional.of(row(id, ExperimentStatus.RUNNING)));
        mvc.perform(get("/api/v1/experiments/{id}/events", id).accept(MediaType.TEXT_EVENT_STREAM));
        mvc.perform(get("/api/v1/experiments/{id}/events", id).accept(MediaType.TEXT_EVENT_STREAM));
        mvc.perform(get("/api/v1/experiments/{id}/events", id).accept(MediaType.TEXT_EVENT_STREAM))
                .andExpect(status().isTooManyRequests())
                .andExpect(header().string("Retry-After", "5"))
                .andExpect(jsonPath("$.type").value("https://schedlab.io/problems/too-many-streams"));
        when(repository.findRow(id)).thenReturn(Optional.of(row(id, ExperimentStatus.CANCELLED)));
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (streams.openStreams() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10); // the finished status closes them
        }
        assertThat(streams.openStreams()).isZero();
    }

    private static ExperimentRow row(UUID id, ExperimentStatus status) {
        Instant now = Instant.now();
        return new ExperimentRow(id, "n", "{}", "credit", status, 0.5, 0, now, now, status.finished() ? now : null,
                null, false, "0.1.0", null, null, null, null, null);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

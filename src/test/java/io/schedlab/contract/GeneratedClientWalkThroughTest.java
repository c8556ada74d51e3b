package io.schedlab.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.schedlab.SchedLabApplication;
import io.schedlab.client.ApiClient;
import io.schedlab.client.ApiException;
import io.schedlab.client.api.CatalogApi;
import io.schedlab.client.api.ExperimentsApi;
import io.schedlab.client.api.ResultsApi;
import io.schedlab.client.model.ExperimentPageResponse;
import io.schedlab.client.model.ExperimentResponse;
import io.schedlab.client.model.ExperimentResponse.StatusEnum;
import io.schedlab.client.model.ExperimentSpec;
import io.schedlab.client.model.Headline;
import io.schedlab.client.model.Problem;
import io.schedlab.client.model.ResultDocument;
import io.schedlab.client.model.SchedulerView;
import io.schedlab.client.model.ValidationResponse;
import io.schedlab.client.model.VmResult;
import io.schedlab.client.model.WorkloadView;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The README's walk-through through a Java client generated from openapi.yaml at build time
 * (openapi-generator, {@code -g java --library native}) against the running service on a random
 * port: every example submitted as the generated model serializes it (absent arrays as []),
 * polled, its results, input and event stream read; the catalog listed; every error kind the
 * client can cause answered with a Problem the generated model reads. Fails whenever the contract
 * and the service drift apart.
 */
@SpringBootTest(classes = SchedLabApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.datasource.url=jdbc:h2:mem:generated-client;DB_CLOSE_DELAY=-1",
            "schedlab.jobs.workers=1", "schedlab.jobs.max-queued=3", "schedlab.limits.max-body-bytes=65536",
            "schedlab.limits.queue-depth-cache=0s", "schedlab.data-dir=target/test-data/generated-client"})
class GeneratedClientWalkThroughTest {

    private static final Duration FINISH_WITHIN = Duration.ofSeconds(120);
    private static final String PROBLEMS = "https://schedlab.io/problems/";

    @LocalServerPort
    int port;

    private ExperimentsApi experiments;
    private ResultsApi results;

    @BeforeEach
    void apis() {
        experiments = new ExperimentsApi(client());
        results = new ResultsApi(client());
    }

    private ApiClient client() {
        ApiClient client = new ApiClient();
        client.updateBaseUri("http://localhost:" + port);
        client.setReadTimeout(Duration.ofSeconds(30));
        return client;
    }

    @Test
    void theWalkThroughRunsOnTheGeneratedClient() throws Exception {
        ApiClient client = client();
        ObjectMapper json = client.getObjectMapper();
        CatalogApi catalog = new CatalogApi(client);

        // what can go in an experiment
        List<SchedulerView> schedulers = catalog.listSchedulers();
        assertThat(schedulers).extracting(SchedulerView::getName).contains("static", "credit", "credit2", "null");
        List<WorkloadView> workloads = catalog.listWorkloads();
        assertThat(workloads).extracting(WorkloadView::getType).contains("idle", "cpu-loop", "interactive");
        assertThat(workloads).allSatisfy(w -> assertThat(w.getUnit()).isNotBlank());

        // every example, as the generated model sends it
        List<Path> examples;
        try (Stream<Path> files = Files.list(Path.of("examples"))) {
            examples = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(examples).hasSizeGreaterThanOrEqualTo(5);
        for (Path example : examples) {
            ExperimentSpec spec = json.readValue(example.toFile(), ExperimentSpec.class);
            ValidationResponse valid = experiments.validateExperiment(spec);
            assertThat(valid.getValid()).as(example.toString()).isTrue();
            ExperimentResponse queued = experiments.submitExperiment(spec, null, null);
            assertThat(queued.getId()).as(example + " got an id").isNotNull();
            assertThat(queued.getStatus()).isIn(StatusEnum.QUEUED, StatusEnum.RUNNING);

            ExperimentResponse done = await(experiments, queued.getId(), e -> e.getStatus() == StatusEnum.SUCCEEDED);
            assertThat(done.getSummary().getEvents()).isPositive();
            ResultDocument result = results.getExperimentResults(done.getId());
            assertThat(result.getPartial()).isFalse();
            assertThat(result.getStopReason()).isIn("duration", "all-complete");
            assertThat(result.getSummary().getSimulatedNanos()).isEqualTo(done.getSummary().getSimulatedNanos());
            assertThat(result.getVms()).extracting(VmResult::getName)
                    .containsExactlyElementsOf(vmNames(spec));
            for (Headline h : result.getSummary().getVmHeadline().values()) {
                assertThat(h.getUnit()).isNotBlank();
                assertThat(h.getMeaning()).isNotBlank();
            }
            assertThat(experiments.getExperimentInput(done.getId()).getNormalized().getScheduler().getPolicy())
                    .isEqualTo(spec.getScheduler().getPolicy());
            assertThat(Files.readString(experiments.streamExperimentEvents(done.getId()).toPath()))
                    .contains("event:status").contains("\"SUCCEEDED\"");
        }

        // the README's numbers: seed 001 static ~192 s, VM1 and VM3 alike, the idle dom0 does not compete
        ExperimentPageResponse seed001 = experiments.listExperiments(0, 20, "SUCCEEDED", "static placement",
                List.of("seed:001"));
        assertThat(seed001.getTotalItems()).isEqualTo(1);
        ResultDocument shared = results.getExperimentResults(seed001.getItems().get(0).getId());
        assertThat(shared.getSummary().getVmHeadline().get("VM1").getValue()).isBetween(190.0, 194.0);
        assertThat(shared.getFairness().getCompetingVms()).containsExactly("VM1", "VM3");
        assertThat(shared.getFairness().getJainIndex()).isGreaterThan(0.999);
        assertThatProblem(() -> results.getExperimentTrace(seed001.getItems().get(0).getId()), 404,
                "trace-not-available");
        assertThatProblem(() -> results.getExperimentTracePerfetto(seed001.getItems().get(0).getId()), 404,
                "trace-not-available");
        assertThatProblem(() -> experiments.cancelExperiment(seed001.getItems().get(0).getId()), 409, "conflict");

        // the same as tidy CSV (what pandas.read_csv(url) reads): one row per VM / vCPU / experiment, each CSV
        // an operation of its own whose binary body the generated client hands over as a downloaded File
        UUID id = seed001.getItems().get(0).getId();
        List<CSVRecord> vms = csv(results.getExperimentResultsCsv(id, null));
        assertThat(vms).extracting(r -> r.get("vm")).containsExactly("dom0", "VM1", "VM3");
        assertThat(vms.get(0).get("endNanos")).as("dom0 ran to the end: empty, not -1 or 0").isEmpty();
        assertThat(Long.parseLong(vms.get(1).get("completionNanos")))
                .isEqualTo(shared.getVms().get(1).getCompletionNanos());
        assertThat(csv(results.getExperimentResultsCsv(id, "vcpus"))).hasSize(4);
        List<CSVRecord> listed = csv(experiments.listExperimentsCsv(null, null, "SUCCEEDED", null, List.of("seed:001")));
        assertThat(listed).hasSize((int) (long) seed001.getTotalItems() + 2); // static, pin and credit
        assertThat(listed).extracting(r -> r.get("status")).containsOnly("SUCCEEDED");
    }

    private static List<CSVRecord> csv(java.io.File download) throws IOException {
        String body = Files.readString(download.toPath());
        assertThat(body).as("LF line ends").doesNotContain("\r");
        return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(new java.io.StringReader(body)).getRecords();
    }

    @Test
    void everyErrorKindIsAProblemTheGeneratedModelReads() throws Exception {
        ObjectMapper json = client().getObjectMapper();
        ExperimentSpec longRun = json.readValue(
                getClass().getResourceAsStream("/jobs/long-busy.json"), ExperimentSpec.class);

        ExperimentSpec unknownPolicy = json.readValue(Path.of("examples/small.json").toFile(), ExperimentSpec.class);
        unknownPolicy.getScheduler().setPolicy("credit3");
        Problem invalid = assertThatProblem(() -> experiments.submitExperiment(unknownPolicy, null, null), 422,
                "invalid-experiment");
        assertThat(invalid.getErrors()).extracting(e -> e.getPointer()).contains("/scheduler/policy");
        assertThatProblem(() -> experiments.submitExperiment(longRun, "true", null), 400, "malformed-request");
        assertThatProblem(() -> experiments.getExperiment(UUID.randomUUID()), 404, "not-found");

        // one worker: the first long run runs, the second waits; the queue takes three
        UUID running = experiments.submitExperiment(longRun, null, null).getId();
        await(experiments, running, e -> e.getStatus() == StatusEnum.RUNNING);
        assertThatProblem(() -> results.getExperimentResults(running), 409, "results-not-ready");
        UUID waiting = experiments.submitExperiment(longRun, null, null).getId();
        List<UUID> filler = new ArrayList<>();
        Problem full = null;
        for (int i = 0; i < 5 && full == null; i++) {
            try {
                filler.add(experiments.submitExperiment(longRun, null, null).getId());
            } catch (ApiException e) {
                full = problem(e, 429, "queue-full");
            }
        }
        assertThat(full).as("the queue filled up").isNotNull();

        // cancelled while QUEUED: never ran, no results; cancelled while RUNNING: partial results
        assertThat(experiments.cancelExperiment(waiting).getStatus()).isEqualTo(StatusEnum.CANCELLED);
        assertThatProblem(() -> results.getExperimentResults(waiting), 404, "no-results");
        experiments.cancelExperiment(running);
        ExperimentResponse cancelled = await(experiments, running, e -> e.getStatus() == StatusEnum.CANCELLED);
        ResultDocument partial = results.getExperimentResults(running);
        assertThat(partial.getPartial()).isTrue();
        assertThat(partial.getStopReason()).isEqualTo("stopped");
        assertThat(cancelled.getSummary().getSimulatedNanos()).isEqualTo(partial.getSummary().getSimulatedNanos());

        // delete, whatever the status
        for (UUID id : Stream.concat(Stream.of(running, waiting), filler.stream()).toList()) {
            experiments.deleteExperiment(id);
            assertThatProblem(() -> experiments.getExperiment(id), 404, "not-found");
        }

        // what the generated client cannot send by construction, sent raw; the answer still reads as Problem
        HttpClient http = HttpClient.newHttpClient();
        String base = "http://localhost:" + port + "/api/v1";
        assertRawProblem(http, json, HttpRequest.newBuilder(URI.create(base + "/experiments"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("x")), 415,
                "unsupported-media-type");
        assertRawProblem(http, json, HttpRequest.newBuilder(URI.create(base + "/experiments"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"" + "x".repeat(70_000) + "\"}")), 413,
                "payload-too-large");
        assertRawProblem(http, json, HttpRequest.newBuilder(URI.create(base + "/experiments"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"seed\": }")),
                400, "malformed-request");
        assertRawProblem(http, json, HttpRequest.newBuilder(URI.create(base + "/experiments/not-a-uuid")).GET(), 400,
                "malformed-request");
        assertRawProblem(http, json, HttpRequest.newBuilder(URI.create(base + "/schedulers"))
                .PUT(HttpRequest.BodyPublishers.noBody()), 405, "method-not-allowed");
        assertRawProblem(http, json, HttpRequest.newBuilder(URI.create(base + "/schedulers"))
                .header("Accept", "image/png").GET(), 406, "not-acceptable");
    }

    private static ExperimentResponse await(ExperimentsApi api, UUID id, Predicate<ExperimentResponse> until)
            throws ApiException, InterruptedException {
        long deadline = System.nanoTime() + FINISH_WITHIN.toNanos();
        ExperimentResponse e = api.getExperiment(id);
        while (!until.test(e)) {
            if (System.nanoTime() > deadline) {
                fail("experiment " + id + " still " + e.getStatus() + " after " + FINISH_WITHIN);
            }
            if (e.getStatus() == StatusEnum.FAILED) {
                fail("experiment " + id + " FAILED: " + e.getFailureReason());
            }
            Thread.sleep(50);
            e = api.getExperiment(id);
        }
        return e;
    }

    /** A call the generated client makes. */
    private interface Call {
        void run() throws ApiException;
    }

    private Problem assertThatProblem(Call call, int status, String kind) {
        try {
            call.run();
        } catch (ApiException e) {
            return problem(e, status, kind);
        }
        throw new AssertionError("expected " + status + " " + kind + ", the call succeeded");
    }

    private Problem problem(ApiException e, int status, String kind) {
        assertThat(e.getCode()).as(e.getResponseBody()).isEqualTo(status);
        try {
            Problem p = client().getObjectMapper().readValue(e.getResponseBody(), Problem.class);
            assertThat(p.getType()).isEqualTo(PROBLEMS + kind);
            assertThat(p.getStatus()).isEqualTo(status);
            return p;
        } catch (IOException io) {
            throw new AssertionError("not a Problem: " + e.getResponseBody(), io);
        }
    }

    private static void assertRawProblem(HttpClient http, ObjectMapper json, HttpRequest.Builder request, int status,
            String kind) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        Problem p = json.readValue(response.body(), Problem.class);
        assertThat(p.getType()).isEqualTo(PROBLEMS + kind);
    }

    /** The VMs a result lists: the spec's, then one per group of host threads (KVM). */
    private static java.util.List<String> vmNames(ExperimentSpec spec) {
        java.util.List<String> names = new java.util.ArrayList<>(spec.getVms().stream().map(v -> v.getName()).toList());
        if (spec.getScheduler() != null && spec.getScheduler().getHostThreads() != null) {
            spec.getScheduler().getHostThreads().forEach(h -> names.add(h.getName()));
        }
        return names;
    }
}

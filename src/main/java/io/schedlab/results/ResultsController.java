package io.schedlab.results;

import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.trace.PerfettoTrace;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.experiments.ExperimentSpecReader;
import io.schedlab.experiments.TraceFile;
import io.schedlab.web.ApiErrors;
import io.schedlab.web.BadParameterException;
import io.schedlab.web.CsvResponses;
import io.schedlab.web.ProblemSchema;
import io.schedlab.web.TraceNotAvailableException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The full result document of a SUCCEEDED experiment and its optional event trace (CSV, or Perfetto JSON). */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "results")
class ResultsController {

    private final ExperimentService experiments;
    private final Path dataDir;
    private final ExperimentSpecReader reader = new ExperimentSpecReader();
    private final JsonMapper json = JsonMapper.builder().build();

    /** The one value the trace's legacy {@code format} parameter still takes. */
    static final String TRACE_CSV = "csv";

    ResultsController(ExperimentService experiments, @Value("${schedlab.data-dir:./data}") String dataDir) {
        this.experiments = experiments;
        this.dataDir = Path.of(dataDir);
    }

    @Operation(operationId = "getExperimentResults", summary = "The result document: complete once SUCCEEDED, partial (\"partial\": true) for a run CANCELLED or FAILED while running",
            responses = {
                @ApiResponse(responseCode = "200", description = "the result document",
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = ResultDocument.class))),
                @ApiResponse(responseCode = "400", description = "the id is not a UUID; format=csv names getExperimentResultsCsv", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
                @ApiResponse(responseCode = "404", description = "no experiment with this id (not-found), or it finished before it ran: no-results", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
                @ApiResponse(responseCode = "409", description = "QUEUED or RUNNING: results-not-ready", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/experiments/{id}/results", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> results(@PathVariable("id") UUID id,
            @Parameter(hidden = true) @RequestParam(name = "format", required = false) String format) {
        CsvResponses.rejectFormatOtherThanJson(format, "/api/v1/experiments/" + id + "/results.csv");
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(experiments.resultJson(id));
    }

    @Operation(operationId = "getExperimentResultsCsv", summary = "The result as tidy CSV: one row per VM, or per vCPU (what pandas.read_csv reads as it is)",
            responses = {
                @ApiResponse(responseCode = "200", description = "the result as CSV",
                    content = @Content(mediaType = "text/csv", schema = @Schema(type = "string", format = "binary"))),
                @ApiResponse(responseCode = "400", description = "the id is not a UUID, or table is neither vms nor vcpus", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
                @ApiResponse(responseCode = "404", description = "no experiment with this id (not-found), or it finished before it ran: no-results", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
                @ApiResponse(responseCode = "409", description = "QUEUED or RUNNING: results-not-ready", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/experiments/{id}/results.csv", produces = "text/csv")
    ResponseEntity<String> resultsCsv(@PathVariable("id") UUID id,
            @Parameter(description = "vms (one row per VM, the default) or vcpus (one row per vCPU)",
                    schema = @Schema(type = "string", allowableValues = {"vms", "vcpus"}))
            @RequestParam(name = "table", required = false) String table) {
        String json = experiments.resultJson(id);
        return ResponseEntity.ok().contentType(CsvResponses.TEXT_CSV)
                .body(ResultCsv.table(reader.readStored(json, ResultDocument.class), table));
    }

    @Operation(operationId = "getExperimentTrace", summary = "The xentrace-style CSV event trace, when the experiment enabled tracing (the same trace for ui.perfetto.dev is getExperimentTracePerfetto)",
            responses = {
                @ApiResponse(responseCode = "200", description = "CSV: time_ns,pcpu,event,vm,vcpu",
                    content = @Content(mediaType = "text/csv", schema = @Schema(type = "string", format = "binary"))),
                @ApiResponse(responseCode = "400", description = "the id is not a UUID, or format is other than csv (format=perfetto names getExperimentTracePerfetto)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
                @ApiResponse(responseCode = "404", description = "no experiment with this id, it was run without trace (trace-not-available), or it never ran (no-results)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
                @ApiResponse(responseCode = "409", description = "QUEUED or RUNNING: results-not-ready", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/experiments/{id}/trace", produces = "text/csv")
    ResponseEntity<Resource> trace(@PathVariable("id") UUID id,
            @Parameter(hidden = true) @RequestParam(name = "format", required = false) String format) {
        rejectFormatOtherThanCsv(format, id);
        Path file = storedTrace(id);
        return ResponseEntity.ok()
                .contentType(MediaType.parseMediaType("text/csv"))
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + id + ".csv\"")
                .body(new FileSystemResource(file));
    }

    @Operation(operationId = "getExperimentTracePerfetto", summary = "The event trace as Chrome trace-event JSON for ui.perfetto.dev, when the experiment enabled tracing",
            responses = {
                @ApiResponse(responseCode = "200", description = "Chrome trace-event JSON (a track per pCPU, a slice per vCPU run, migration flows, run-queue counters)",
                    content = @Content(mediaType = "application/json", schema = @Schema(type = "object", description = "Trace Event Format: {\"traceEvents\": [...], \"displayTimeUnit\": \"ns\", \"otherData\": {...}}"))),
                @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
                @ApiResponse(responseCode = "404", description = "no experiment with this id, it was run without trace (trace-not-available), or it never ran (no-results)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
                @ApiResponse(responseCode = "409", description = "QUEUED or RUNNING: results-not-ready", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/experiments/{id}/trace.perfetto.json", produces = MediaType.APPLICATION_JSON_VALUE)
    void tracePerfetto(@PathVariable("id") UUID id, HttpServletResponse response) throws IOException {
        writePerfetto(id, storedTrace(id), response); // written to the response as it is converted
    }

    /** The stored CSV trace of a run that has results; 404 trace-not-available when it ran without one. */
    private Path storedTrace(UUID id) {
        experiments.requireResult(id);
        Path file = TraceFile.pathOf(dataDir, id);
        if (!Files.isRegularFile(file)) {
            throw new TraceNotAvailableException("experiment " + id
                    + " has no trace: submit it with \"trace\": {\"enabled\": true} to record one");
        }
        return file;
    }

    /** {@code format=csv} is still accepted; {@code format=perfetto} (or anything else) names the Perfetto operation. */
    private static void rejectFormatOtherThanCsv(String format, UUID id) {
        if (format != null && !TRACE_CSV.equalsIgnoreCase(format)) {
            throw new BadParameterException("format", "this operation answers CSV only; the trace for ui.perfetto.dev is"
                    + " GET /api/v1/experiments/" + id + "/trace.perfetto.json");
        }
    }

    /**
     * Streams the stored CSV through the engine's converter: memory stays at one entry per pCPU and vCPU, and
     * the size is bounded by the trace's own bound (schedlab.limits.max-trace-events). Runs still open at the
     * end of the trace end at the run's simulated end, unless the trace was cut at its bound (trace.maxEvents).
     */
    private void writePerfetto(UUID id, Path file, HttpServletResponse response) throws IOException {
        JsonNode result = json.readTree(experiments.resultJson(id));
        JsonNode spec = json.readTree(experiments.input(id).normalizedJson());
        String name = spec.path("name").asString(null);
        PerfettoTrace.Options options = new PerfettoTrace.Options(name == null ? id.toString() : name,
                result.path("pcpus").size(), spec.path("trace").path("maxEvents").asLong(0));
        long end = result.path("summary").path("simulatedNanos").asLong(0);
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setHeader(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + id + ".perfetto.json\"");
        try (Reader csv = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            OutputStream out = new BufferedOutputStream(response.getOutputStream(), 64 * 1024);
            PerfettoTrace.fromCsv(csv, out, options, end);
            out.flush();
        }
    }
}

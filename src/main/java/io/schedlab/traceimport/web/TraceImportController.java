package io.schedlab.traceimport.web;

import io.schedlab.engine.tracereplay.ReplayComparison;
import io.schedlab.experiments.Experiment;
import io.schedlab.traceimport.TraceImportRequest;
import io.schedlab.traceimport.TraceImportService;
import io.schedlab.web.ApiErrors;
import io.schedlab.web.ProblemSchema;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.responses.ApiResponses;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.UUID;
import org.springframework.context.annotation.Lazy;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/** A recorded scheduling trace in as an experiment, and an imported experiment's replay against its record. */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "trace-import")
class TraceImportController {

    private final TraceImportService service;
    private final JsonMapper json = JsonMapper.builder().build();

    /** The service is resolved on first use ({@code @Lazy}): web slices hold controllers only. */
    TraceImportController(@Lazy TraceImportService service) {
        this.service = service;
    }

    @Operation(operationId = "importTrace", summary = "Turn a recorded scheduling trace (perf script, trace-cmd report, xentrace) into an experiment; submit=true also submits it",
            description = "The body is the file as recorded: `perf script` or `trace-cmd report` text of sched_switch and sched_wakeup, or a xentrace binary of the scheduler class (xentrace -e 0x0002f000). The answer holds the experiment (a host with the trace's CPUs, one VM per domain, comm or for all, each thread's run and sleep bursts as a `trace` workload on its own vCPU) to edit and POST to /api/v1/experiments; with submit=true it is submitted at once, keeping the recorded run and wait samples for GET /api/v1/experiments/{id}/replay.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {
                @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM_VALUE, schema = @Schema(type = "string", format = "binary")),
                @Content(mediaType = MediaType.TEXT_PLAIN_VALUE, schema = @Schema(type = "string"))}))
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the experiment built from the trace (nothing stored)", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = TraceImportResponse.class))),
        @ApiResponse(responseCode = "202", description = "submit=true: the experiment was submitted and queued; Location names it", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = TraceImportResponse.class))),
        @ApiResponse(responseCode = "400", description = "format, groupBy, cpuHz or submit is missing or not one of its values (errors name the parameter)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "413", description = "body over schedlab.limits.max-body-bytes", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "415", description = "Content-Type is neither application/octet-stream nor text/plain", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "422", description = "the file cannot be read (the message names the line or byte offset: unknown or truncated record, time going back, a missing switch or wake-up, over the record, thread or CPU limits), or the experiment it makes is invalid (invalid-experiment)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "429", description = "submit=true and the queue is full or the API key has its quota", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @PostMapping(path = "/experiments:import", consumes = {MediaType.APPLICATION_OCTET_STREAM_VALUE, MediaType.TEXT_PLAIN_VALUE},
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<TraceImportResponse> importTrace(@RequestBody byte[] body,
            @Parameter(description = "perf-script, trace-cmd or xentrace", required = true)
            @RequestParam(name = "format") String format,
            @Parameter(description = "domain (xentrace default: one VM per domain), comm (Linux default: one VM per command name) or single (one VM for all)")
            @RequestParam(name = "groupBy", required = false) String groupBy,
            @Parameter(description = "the policy to replay under (GET /api/v1/policies); default cfs for Linux text, credit2 for xentrace")
            @RequestParam(name = "scheduler", required = false) String scheduler,
            @Parameter(description = "the experiment's name; default \"imported FORMAT trace\"")
            @RequestParam(name = "name", required = false) String name,
            @Parameter(description = "xentrace only: TSC ticks per second (default 2400000000, as xenalyze assumes)")
            @RequestParam(name = "cpuHz", required = false) Long cpuHz,
            @Parameter(description = "true: submit the experiment at once (answer 202)")
            @RequestParam(name = "submit", required = false, defaultValue = "false") boolean submit) {
        TraceImportService.Imported imported = service.read(body,
                new TraceImportRequest(format, groupBy, scheduler, name, cpuHz));
        TraceImportResponse.RecordedTraceSummary recorded = TraceImportResponse.RecordedTraceSummary.of(imported.trace(),
                imported.experiment().spec().vms().size());
        if (!submit) {
            return ResponseEntity.ok(new TraceImportResponse(json.readTree(imported.specJson()), recorded, null));
        }
        Experiment e = service.submit(imported);
        return ResponseEntity.accepted().location(URI.create("/api/v1/experiments/" + e.id()))
                .body(new TraceImportResponse(json.readTree(imported.specJson()), recorded,
                        TraceImportResponse.ImportedExperimentRef.of(e)));
    }

    @Operation(operationId = "getExperimentReplay", summary = "An imported experiment's replay beside its record: per vCPU and overall, the recorded and simulated run slices and waits and their Kolmogorov-Smirnov distance",
            description = "For an experiment submitted by POST /api/v1/experiments:import with submit=true, once it has run: its replay's own trace read into per-vCPU run slices (switch-in to switch-out) and waits (runnable to running), beside the recorded ones, with counts, means, lower medians and the two-sample Kolmogorov-Smirnov statistic (0: the same distribution, 1: disjoint; absent with fewer than two samples on a side), per vCPU and pooled.")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the comparison", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ReplayComparison.class))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no experiment with this id, it was not imported from a recorded trace or has no trace of its replay (trace-not-available), or it never ran (no-results)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "409", description = "QUEUED or RUNNING: results-not-ready", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/experiments/{id}/replay", produces = MediaType.APPLICATION_JSON_VALUE)
    ReplayComparison replay(@PathVariable("id") UUID id) {
        return service.compare(id);
    }
}

package io.schedlab.experiments.web;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentPage;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.experiments.ExperimentSpecReader;
import io.schedlab.experiments.SubmissionRules;
import io.schedlab.experiments.ValidatedExperiment;
import io.schedlab.experiments.status.ExperimentStatus;
import io.schedlab.experiments.persistence.ExperimentFilter;
import io.schedlab.web.ApiErrors;
import io.schedlab.web.BadParameterException;
import io.schedlab.web.CsvResponses;
import io.schedlab.web.ProblemSchema;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.responses.ApiResponses;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** Submit, validate, list, read and cancel experiments. The body is read as bytes so it is stored exactly as sent. */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "experiments")
class ExperimentController {

    /** Request example for the OpenAPI document (examples/seed-001-pin.json, compacted). */
    static final String SEED_001_PIN = "{\"name\": \"seed-001 static + xm vcpu-pin VM1 0 0 at t=10 s\", "
            + "\"labels\": {\"seed\": \"001\"}, \"seed\": 1, \"stopWhen\": \"all-complete\", \"durationSeconds\": 600, "
            + "\"host\": {\"sockets\": 1, \"coresPerSocket\": 2, \"threadsPerCore\": 1}, "
            + "\"scheduler\": {\"policy\": \"static\"}, \"vms\": ["
            + "{\"name\": \"dom0\", \"vcpus\": 2, \"placement\": [0, 1], \"workload\": {\"type\": \"idle\"}}, "
            + "{\"name\": \"VM1\", \"vcpus\": 1, \"placement\": [1], \"workload\": {\"type\": \"cpu-loop\", \"params\": {\"workSeconds\": 96}}}, "
            + "{\"name\": \"VM3\", \"vcpus\": 1, \"placement\": [1], \"workload\": {\"type\": \"cpu-loop\", \"params\": {\"workSeconds\": 96}}}], "
            + "\"timeline\": [{\"atSeconds\": 10, \"action\": \"pin\", \"vm\": \"VM1\", \"vcpu\": 0, \"pcpus\": [0]}]}";
    private static final int MAX_LABEL_FILTERS = 10;
    private static final int MAX_NAME_FILTER_LENGTH = SubmissionRules.MAX_NAME_LENGTH;
    private static final int MAX_PAGE = 1_000_000;

    private final ExperimentService service;
    private final ProgressStreams streams;
    private final ExperimentSpecReader reader = new ExperimentSpecReader();

    ExperimentController(ExperimentService service, ProgressStreams streams) {
        this.service = service;
        this.streams = streams;
    }

    @Operation(operationId = "submitExperiment", summary = "Validate, store and enqueue an experiment",
            description = "Answers 202 with the queued experiment and its Location. To validate without storing, use validateExperiment (POST /api/v1/experiments:validate).",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = ExperimentSpec.class),
                            examples = @ExampleObject(name = "seed-001-pin", summary = "seed 001: two loops on pCPU 1, VM1 pinned to pCPU 0 at 10 s", value = SEED_001_PIN))))
    @ApiResponses({
        @ApiResponse(responseCode = "202", description = "accepted and queued; Location names the new experiment", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ExperimentResponse.class))),
        @ApiResponse(responseCode = "400", description = "malformed JSON or a value of the wrong type (errors name each pointer)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "413", description = "body over schedlab.limits.max-body-bytes", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "415", description = "Content-Type is not application/json", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "409", description = "a request with the same Idempotency-Key is still being processed (idempotency-key-in-use)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "422", description = "well-formed but invalid experiment (errors name each pointer), estimated too costly (experiment-too-costly), or the Idempotency-Key was used with another body (idempotency-key-reused)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "429", description = "the job queue is full (queue-full) or the API key has its quota of queued experiments (quota-exceeded; quotaProperty names it); retry after the Retry-After seconds", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @PostMapping(path = "/experiments", consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ExperimentResponse> submit(@RequestBody byte[] body,
            @Parameter(description = "removed: any value answers 400; validate with POST /api/v1/experiments:validate",
                    deprecated = true)
            @RequestParam(name = "dryRun", required = false) String dryRun,
            @Parameter(description = "a client-chosen key (1-255 visible ASCII characters): the same key and body"
                    + " replay the first answer (same experiment), another body is 422; keys expire after"
                    + " schedlab.idempotency.ttl")
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey) {
        if (dryRun != null) {
            throw new BadParameterException("dryRun", "was removed (one answer per operation): validate with"
                    + " POST /api/v1/experiments:validate; nothing was stored");
        }
        Experiment e = service.submit(body, idempotencyKey).value();
        return ResponseEntity.accepted().location(URI.create("/api/v1/experiments/" + e.id()))
                .body(ExperimentResponse.of(e));
    }

    @Operation(operationId = "validateExperiment", summary = "Fully validate an experiment and return it normalized; nothing is stored",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = ExperimentSpec.class),
                            examples = @ExampleObject(name = "seed-001-pin", summary = "seed 001: two loops on pCPU 1, VM1 pinned to pCPU 0 at 10 s", value = SEED_001_PIN))))
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "valid; the normalized input", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ValidationResponse.class))),
        @ApiResponse(responseCode = "400", description = "malformed JSON or a value of the wrong type (errors name each pointer)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "413", description = "body over schedlab.limits.max-body-bytes", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "415", description = "Content-Type is not application/json", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "422", description = "well-formed but invalid experiment (errors name each pointer)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @PostMapping(path = "/experiments:validate", consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ValidationResponse validate(@RequestBody byte[] body) {
        return validation(service.validate(body));
    }

    @Operation(operationId = "listExperiments", summary = "Experiments, newest first, filtered by status, name and labels")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "one page of experiments", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ExperimentPageResponse.class))),
        @ApiResponse(responseCode = "400", description = "a parameter is out of range or malformed (errors name it); format=csv names listExperimentsCsv", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @Parameter(name = "label", in = ParameterIn.QUERY, description = "key:value, repeatable; all must match",
            array = @ArraySchema(schema = @Schema(type = "string")))
    @GetMapping(path = "/experiments", produces = MediaType.APPLICATION_JSON_VALUE)
    ExperimentPageResponse list(
            @Parameter(description = "zero-based page") @RequestParam(name = "page", defaultValue = "0") int page,
            @Parameter(description = "page size, 1..100") @RequestParam(name = "size", defaultValue = "20") int size,
            @Parameter(description = "QUEUED, RUNNING, SUCCEEDED, FAILED or CANCELLED")
            @RequestParam(name = "status", required = false) String status,
            @Parameter(description = "case-insensitive substring of the name")
            @RequestParam(name = "name", required = false) String name,
            @Parameter(hidden = true) @RequestParam(name = "format", required = false) String format,
            HttpServletRequest request) {
        CsvResponses.rejectFormatOtherThanJson(format, "/api/v1/experiments.csv");
        return ExperimentPageResponse.of(page(page, size, status, name, request));
    }

    @Operation(operationId = "listExperimentsCsv", summary = "Experiments as tidy CSV, newest first, with the filters of listExperiments")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "one page of experiments as CSV", content = @Content(mediaType = "text/csv", schema = @Schema(type = "string", format = "binary"))),
        @ApiResponse(responseCode = "400", description = "a parameter is out of range or malformed (errors name it)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @Parameter(name = "label", in = ParameterIn.QUERY, description = "key:value, repeatable; all must match",
            array = @ArraySchema(schema = @Schema(type = "string")))
    @GetMapping(path = "/experiments.csv", produces = "text/csv")
    ResponseEntity<String> listCsv(
            @Parameter(description = "zero-based page") @RequestParam(name = "page", defaultValue = "0") int page,
            @Parameter(description = "page size, 1..100") @RequestParam(name = "size", defaultValue = "20") int size,
            @Parameter(description = "QUEUED, RUNNING, SUCCEEDED, FAILED or CANCELLED")
            @RequestParam(name = "status", required = false) String status,
            @Parameter(description = "case-insensitive substring of the name")
            @RequestParam(name = "name", required = false) String name,
            HttpServletRequest request) {
        return ResponseEntity.ok().contentType(CsvResponses.TEXT_CSV)
                .body(ExperimentCsv.page(page(page, size, status, name, request)));
    }

    /** The page both list operations answer, after checking each filter's bounds. */
    private ExperimentPage page(int page, int size, String status, String name, HttpServletRequest request) {
        // read raw: Spring splits a single List<String> parameter value on commas ("t:a,b" -> "t:a", "b")
        String[] label = request.getParameterValues("label");
        if (page < 0 || page > MAX_PAGE) {
            throw new BadParameterException("page", "must be between 0 and " + MAX_PAGE);
        }
        if (size < 1 || size > ExperimentService.MAX_PAGE_SIZE) {
            throw new BadParameterException("size", "must be between 1 and " + ExperimentService.MAX_PAGE_SIZE);
        }
        if (name != null && name.length() > MAX_NAME_FILTER_LENGTH) {
            throw new BadParameterException("name", "at most " + MAX_NAME_FILTER_LENGTH + " characters");
        }
        return service.list(new ExperimentFilter(parseStatus(status), name, parseLabels(label), page, size));
    }

    @Operation(operationId = "getExperiment", summary = "Status, progress, timestamps and result summary of one experiment")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the experiment", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ExperimentResponse.class))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no experiment with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/experiments/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    ExperimentResponse get(@PathVariable("id") UUID id) {
        return ExperimentResponse.of(service.get(id));
    }

    @Operation(operationId = "getExperimentInput", summary = "The input exactly as sent and normalized (every default filled in)")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the stored input", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ExperimentInputResponse.class))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no experiment with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/experiments/{id}/input", produces = MediaType.APPLICATION_JSON_VALUE)
    ExperimentInputResponse input(@PathVariable("id") UUID id) {
        ExperimentService.StoredInput in = service.input(id);
        return new ExperimentInputResponse(in.raw(), reader.readStored(in.normalizedJson(), ExperimentSpec.class));
    }

    @Operation(operationId = "streamExperimentEvents", summary = "Server-sent events: a `status` event (the experiment as in GET) at once and on every change, until it has finished")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "text/event-stream of `status` events; ends after the finished status",
                content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM_VALUE, schema = @Schema(type = "string", format = "binary",
                        description = "server-sent events: event name status, data the experiment as JSON (ExperimentResponse)"))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no experiment with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "429", description = "too many open streams (schedlab.limits.max-event-streams); poll instead", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/experiments/{id}/events", produces = {MediaType.TEXT_EVENT_STREAM_VALUE, MediaType.APPLICATION_JSON_VALUE})
    SseEmitter events(@PathVariable("id") UUID id) {
        return streams.open(id);
    }

    @Operation(operationId = "cancelExperiment", summary = "Cancel a QUEUED or RUNNING experiment (409 when already finished)")
    @ApiResponses({
        @ApiResponse(responseCode = "202", description = "cancelled (was QUEUED) or cancellation requested (RUNNING)", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ExperimentResponse.class))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no experiment with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "409", description = "already finished", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @PostMapping(path = "/experiments/{id}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ExperimentResponse> cancel(@PathVariable("id") UUID id) {
        return ResponseEntity.accepted().body(ExperimentResponse.of(service.cancel(id)));
    }

    @Operation(operationId = "deleteExperiment", summary = "Delete an experiment with its results and trace, whatever its status (a RUNNING one stops)")
    @ApiResponses({
        @ApiResponse(responseCode = "204", description = "deleted"),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no experiment with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @DeleteMapping(path = "/experiments/{id}") // 204 has no body: any Accept (clients send only problem+json)
    ResponseEntity<Void> delete(@PathVariable("id") UUID id) {
        service.delete(id);
        return ResponseEntity.noContent().build();
    }

    private static ValidationResponse validation(ValidatedExperiment v) {
        return new ValidationResponse(true, v.normalized());
    }

    private static ExperimentStatus parseStatus(String status) {
        if (status == null || status.isBlank()) {
            return null;
        }
        try {
            return ExperimentStatus.valueOf(status.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BadParameterException("status", "'" + status + "' is not one of "
                    + java.util.Arrays.toString(ExperimentStatus.values()));
        }
    }

    private static Map<String, String> parseLabels(String[] labels) {
        Map<String, String> out = new LinkedHashMap<>();
        if (labels == null) {
            return out;
        }
        if (labels.length > MAX_LABEL_FILTERS) {
            throw new BadParameterException("label", "at most " + MAX_LABEL_FILTERS + " label filters");
        }
        for (String l : labels) {
            int colon = l.indexOf(':');
            if (colon < 1 || l.length() > SubmissionRules.MAX_LABEL_KEY_LENGTH + SubmissionRules.MAX_LABEL_VALUE_LENGTH + 1) {
                throw new BadParameterException("label", "'" + l + "' is not key:value");
            }
            out.put(l.substring(0, colon), l.substring(colon + 1));
        }
        return out;
    }
}

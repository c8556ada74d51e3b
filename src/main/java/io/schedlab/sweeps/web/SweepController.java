package io.schedlab.sweeps.web;

import io.schedlab.engine.sweepgrid.SweepDefinition;
import io.schedlab.engine.sweepgrid.SweepTable;
import io.schedlab.sweeps.SweepService;
import io.schedlab.sweeps.SweepTableCsv;
import io.schedlab.web.ApiErrors;
import io.schedlab.web.BadParameterException;
import io.schedlab.web.CsvResponses;
import io.schedlab.web.ProblemSchema;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.responses.ApiResponses;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
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

/** Submit, read (progress and table), list and cancel sweeps. The body is read as bytes so it is stored exactly as sent. */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "sweeps")
class SweepController {

    /** Request example for the OpenAPI document: two policies x two VM counts, three repetitions. */
    static final String EXAMPLE = "{\"name\": \"credit vs credit2, 2 and 4 vCPUs\", \"seed\": 42, \"repetitions\": 3, "
            + "\"base\": {\"durationSeconds\": 2, \"host\": {\"sockets\": 1, \"coresPerSocket\": 2}, "
            + "\"scheduler\": {\"policy\": \"credit\"}, \"vms\": [{\"name\": \"vm1\", \"vcpus\": 2, "
            + "\"workload\": {\"type\": \"cpu-loop\"}}, {\"name\": \"vm2\", \"vcpus\": 2, \"workload\": {\"type\": \"cpu-loop\"}}]}, "
            + "\"axes\": [{\"name\": \"policy\", \"variants\": [{\"name\": \"credit\", \"patch\": {\"scheduler\": {\"policy\": \"credit\"}}}, "
            + "{\"name\": \"credit2\", \"patch\": {\"scheduler\": {\"policy\": \"credit2\"}}}]}, "
            + "{\"name\": \"vcpus\", \"pointer\": \"/vms/1/vcpus\", \"values\": [2, 4]}], "
            + "\"metrics\": [{\"name\": \"fairness\", \"pointer\": \"/summary/jainIndex\", \"better\": \"higher\"}, "
            + "{\"name\": \"switches\", \"pointer\": \"/summary/contextSwitches\", \"better\": \"lower\"}], "
            + "\"baseline\": {\"policy\": \"credit\", \"vcpus\": \"2\"}}";
    private static final int MAX_PAGE = 1_000_000;

    private final SweepService service;

    SweepController(SweepService service) {
        this.service = service;
    }

    @Operation(operationId = "submitSweep", summary = "Check a sweep, validate every experiment it expands to, then store it with all its child experiments and jobs (202); nothing is stored when any is invalid",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = SweepDefinition.class),
                            examples = @ExampleObject(name = "policies-x-vcpus", summary = "credit vs credit2 at 2 and 4 vCPUs, 3 repetitions", value = EXAMPLE))))
    @ApiResponses({
        @ApiResponse(responseCode = "202", description = "accepted: every child stored and queued (the status is RUNNING once a worker took one); Location names the sweep", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SweepResponse.class))),
        @ApiResponse(responseCode = "400", description = "malformed JSON or a value of the wrong type (errors name each pointer)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "413", description = "body over schedlab.limits.max-body-bytes", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "415", description = "Content-Type is not application/json", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "409", description = "a request with the same Idempotency-Key is still being processed (idempotency-key-in-use)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "422", description = "invalid-sweep: the sweep, or an experiment it expands to, is invalid; errors name the pointer and, for an experiment, its cell; or the Idempotency-Key was used with another body or operation (idempotency-key-reused)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "429", description = "the job queue cannot take all children (queue-full), or they would take the API key over its quota of queued experiments (quota-exceeded; quotaProperty names it); nothing is stored; retry after the Retry-After seconds", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @PostMapping(path = "/sweeps", consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<SweepResponse> submit(@RequestBody byte[] body,
            @Parameter(description = "a client-chosen key (1-255 visible ASCII characters): the same key and body"
                    + " replay the first answer (same sweep), another body is 422; keys expire after"
                    + " schedlab.idempotency.ttl")
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey) {
        SweepResponse s = SweepResponse.of(service.submit(body, idempotencyKey).value());
        return ResponseEntity.accepted().location(URI.create(s.links().self())).body(s);
    }

    @Operation(operationId = "listSweeps", summary = "Sweeps, newest first, with status and progress (without tables)")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "one page of sweeps", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SweepPageResponse.class))),
        @ApiResponse(responseCode = "400", description = "a parameter is out of range (errors name it)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/sweeps", produces = MediaType.APPLICATION_JSON_VALUE)
    SweepPageResponse list(
            @Parameter(description = "zero-based page") @RequestParam(name = "page", defaultValue = "0") int page,
            @Parameter(description = "page size, 1..100") @RequestParam(name = "size", defaultValue = "20") int size) {
        if (page < 0 || page > MAX_PAGE) {
            throw new BadParameterException("page", "must be between 0 and " + MAX_PAGE);
        }
        if (size < 1 || size > SweepService.MAX_PAGE_SIZE) {
            throw new BadParameterException("size", "must be between 1 and " + SweepService.MAX_PAGE_SIZE);
        }
        return SweepPageResponse.of(service.list(page, size));
    }

    @Operation(operationId = "getSweep", summary = "Status and progress (done of total) of a sweep and, once every child has finished, its table")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the sweep", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SweepResponse.class))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no sweep with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/sweeps/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    SweepResponse get(@PathVariable("id") UUID id) {
        return SweepResponse.of(service.get(id));
    }

    @Operation(operationId = "getSweepDefinition", summary = "The sweep definition exactly as it was sent (to download, edit and POST again)")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the definition", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SweepDefinition.class))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no sweep with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/sweeps/{id}/definition", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> definition(@PathVariable("id") UUID id) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(service.definition(id));
    }

    @Operation(operationId = "getSweepTable", summary = "The tidy table (one row per cell x metric) over the children SUCCEEDED so far, as JSON (as CSV: getSweepTableCsv)")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the table; complete=true once every child has finished: rows (one per cell x metric) and published, the published table in its shape with the simulated values beside",
                content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SweepTable.class))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID; format=csv names getSweepTableCsv", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no sweep with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/sweeps/{id}/table", produces = MediaType.APPLICATION_JSON_VALUE)
    SweepTable table(@PathVariable("id") UUID id,
            @Parameter(hidden = true) @RequestParam(name = "format", required = false) String format) {
        CsvResponses.rejectFormatOtherThanJson(format, "/api/v1/sweeps/" + id + "/table.csv");
        return service.table(id);
    }

    @Operation(operationId = "getSweepTableCsv", summary = "The sweep's tidy table as CSV (what pandas.read_csv reads as it is)")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the table as CSV, complete once every child has finished",
                content = @Content(mediaType = "text/csv", schema = @Schema(type = "string", format = "binary"))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no sweep with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/sweeps/{id}/table.csv", produces = "text/csv")
    ResponseEntity<String> tableCsv(@PathVariable("id") UUID id) {
        return ResponseEntity.ok().contentType(CsvResponses.TEXT_CSV)
                .header(HttpHeaders.CONTENT_DISPOSITION, "inline; filename=\"sweep-" + id + ".csv\"")
                .body(SweepTableCsv.write(service.table(id)));
    }

    @Operation(operationId = "cancelSweep", summary = "Cancel every QUEUED or RUNNING child of a sweep (409 when the sweep has finished)")
    @ApiResponses({
        @ApiResponse(responseCode = "202", description = "queued children cancelled, running ones asked to stop", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SweepResponse.class))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no sweep with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "409", description = "already finished", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @PostMapping(path = "/sweeps/{id}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<SweepResponse> cancel(@PathVariable("id") UUID id) {
        return ResponseEntity.accepted().body(SweepResponse.of(service.cancel(id)));
    }

    @Operation(operationId = "deleteSweep", summary = "Same as cancel (the sweep and its children are kept)")
    @ApiResponses({
        @ApiResponse(responseCode = "202", description = "queued children cancelled, running ones asked to stop", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = SweepResponse.class))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no sweep with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "409", description = "already finished", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @DeleteMapping(path = "/sweeps/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<SweepResponse> delete(@PathVariable("id") UUID id) {
        return cancel(id);
    }
}

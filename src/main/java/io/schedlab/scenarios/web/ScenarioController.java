package io.schedlab.scenarios.web;

import io.schedlab.scenarios.ScenarioSweeps.ScenarioView;
import io.schedlab.scenarios.ScenarioSweeps;
import io.schedlab.sweeps.Sweep;
import io.schedlab.sweeps.SweepService;
import io.schedlab.sweeps.SweepsProperties;
import io.schedlab.engine.sweepgrid.SweepLimits;
import org.springframework.beans.factory.ObjectProvider;
import io.schedlab.experiments.LimitsProperties;
import io.schedlab.web.ApiErrors;
import io.schedlab.web.ProblemSchema;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.responses.ApiResponses;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.annotation.JsonInclude;

/** The published experiments E1..E5: descriptions with published numbers, tables as sweep definitions, runs. */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "scenarios")
class ScenarioController {

    private final ScenarioSweeps scenarios;
    private final SweepService sweeps;
    private final io.schedlab.experiments.ExperimentSpecReader reader = new io.schedlab.experiments.ExperimentSpecReader();
    /** Writes the tables' sweep definitions; unset fields are absent, as in every answer. */
    private final JsonMapper json = JsonMapper.builder()
            .changeDefaultPropertyInclusion(i -> i.withValueInclusion(JsonInclude.Include.NON_NULL)).build();

    ScenarioController(SweepService sweeps, ObjectProvider<SweepsProperties> sweepLimits, LimitsProperties limits) {
        this.sweeps = sweeps;
        // web slices without the sweeps configuration get the defaults the command line uses
        SweepsProperties configured = sweepLimits.getIfAvailable();
        this.scenarios = new ScenarioSweeps(configured == null ? SweepLimits.DEFAULTS : configured.limits(),
                limits.maxDurationSeconds());
    }

    @Operation(operationId = "listScenarios", summary = "The published experiments E1..E5: source, set-up, expected shape, their tables with the published numbers, each table as a sweep definition")
    @ApiResponses(@ApiResponse(responseCode = "200", description = "every scenario",
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, array = @ArraySchema(schema = @Schema(implementation = ScenarioView.class)))))
    @GetMapping(path = "/scenarios", produces = MediaType.APPLICATION_JSON_VALUE)
    List<ScenarioView> list() {
        return scenarios.all();
    }

    @Operation(operationId = "getScenario", summary = "One scenario; tables[i].definition is a sweep definition to download, edit and POST to /api/v1/sweeps (the same definition the command line's scenario command runs)")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the scenario", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ScenarioView.class))),
        @ApiResponse(responseCode = "404", description = "no scenario with this name (E1..E5)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/scenarios/{name}", produces = MediaType.APPLICATION_JSON_VALUE)
    ScenarioView get(@PathVariable("name") String name) {
        return scenarios.byName(name).orElseThrow(() -> new ScenarioNotFoundException(name));
    }

    @Operation(operationId = "runScenario", summary = "Run every table of a scenario as a sweep (202; tables with a note are skipped); each sweep's table shows the published values and effects beside the simulated ones; the answer lists the sweeps, in table order")
    @ApiResponses({
        @ApiResponse(responseCode = "202", description = "one sweep per table, all QUEUED", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ScenarioRunResponse.class))),
        @ApiResponse(responseCode = "400", description = "the overrides are malformed JSON or name an unknown field or a value of the wrong type (errors name each pointer)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no scenario with this name (E1..E5)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "409", description = "a request with the same Idempotency-Key is still being processed (idempotency-key-in-use)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "422", description = "an override is out of range (errors name /repetitions or /durationSeconds and the limit: repetitions 1..schedlab.sweeps.max-experiments, and cells x repetitions of every table at most that), a table does not fit the sweep limits (schedlab.sweeps.*), or the Idempotency-Key was used with another body or scenario (idempotency-key-reused)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "429", description = "the job queue cannot take the children of every table (queue-full), or they would take the API key over its quota of queued experiments (quota-exceeded; quotaProperty names it); no table is stored", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @PostMapping(path = "/scenarios/{name}/runs", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ScenarioRunResponse> run(@PathVariable("name") String name,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false, description = "optional overrides",
                    content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ScenarioSweeps.Overrides.class)))
            @RequestBody(required = false) byte[] body,
            @Parameter(description = "a client-chosen key (1-255 visible ASCII"
                    + " characters): the same key, scenario and body replay the first answer (same sweeps), another"
                    + " body or scenario is 422; keys expire after schedlab.idempotency.ttl")
            @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey) {
        ScenarioView view = get(name);
        byte[] request = body == null ? new byte[0] : body;
        ScenarioSweeps.Overrides overrides = request.length == 0 ? new ScenarioSweeps.Overrides(null, null)
                : reader.read(reader.decode(request), ScenarioSweeps.Overrides.class, "the overrides");
        List<ScenarioSweeps.TableSweep> tables = view.tables().stream().filter(t -> t.note() == null).toList();
        // the overrides are bounded before any table is expanded with them
        List<byte[]> definitions = scenarios.runDefinitions(tables, overrides).stream()
                .map(json::writeValueAsBytes).toList();
        // every table's sweep in one transaction, so the key names all of them or none is stored
        List<Sweep> stored = sweeps.submitAll("runScenario " + view.name(), request, definitions, idempotencyKey)
                .value();
        List<ScenarioRunResponse.TableRun> runs = new ArrayList<>();
        for (int i = 0; i < stored.size(); i++) {
            Sweep s = stored.get(i);
            String caption = i < tables.size() ? tables.get(i).caption() : s.name();
            runs.add(new ScenarioRunResponse.TableRun(caption, s.id(), "/api/v1/sweeps/" + s.id(), s.total()));
        }
        return ResponseEntity.accepted().body(new ScenarioRunResponse(view.name(), runs));
    }

    /** The sweeps a scenario run started, one per table. */
    @Schema(description = "The sweeps a scenario run started, one per runnable table")
    record ScenarioRunResponse(String scenario, List<TableRun> tables) {
        /** One table's sweep. */
        @Schema(name = "ScenarioTableRun")
        record TableRun(String caption, java.util.UUID sweepId, String sweep, int total) {
        }
    }

}

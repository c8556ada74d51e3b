package io.schedlab.reports.web;

import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.experiments.status.ExperimentStatus;
import io.schedlab.reports.ReportPage;
import io.schedlab.reports.ReportsProperties;
import io.schedlab.reports.TraceTimeline;
import io.schedlab.sweeps.Sweep;
import io.schedlab.sweeps.SweepService;
import io.schedlab.web.ApiErrors;
import io.schedlab.web.BadParameterException;
import io.schedlab.web.ProblemSchema;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.responses.ApiResponses;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The HTML report of an experiment and of a sweep: one page each, with its data inside, drawn by the app's scripts. */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "reports")
@EnableConfigurationProperties(ReportsProperties.class)
class ReportController {

    private final ExperimentService experiments;
    private final SweepService sweeps;
    private final ReportsProperties properties;
    private final Path traces;
    private final JsonMapper json = JsonMapper.builder().build();

    ReportController(ExperimentService experiments, SweepService sweeps, ReportsProperties properties,
            @Value("${schedlab.data-dir:./data}") String dataDir) {
        this.experiments = experiments;
        this.sweeps = sweeps;
        this.properties = properties;
        this.traces = Path.of(dataDir).resolve("traces");
    }

    @Operation(operationId = "getExperimentReport", summary = "HTML report: summary, latency CDFs (log-x option), per-VM headline bars, per-pCPU utilization and, with a trace, the pCPU timeline over a window with migrations marked")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the page (scripts and styles from this service only)", content = @Content(mediaType = MediaType.TEXT_HTML_VALUE, schema = @Schema(type = "string"))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID, or the window is not 0 <= from < to", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no experiment with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/experiments/{id}/report", produces = {MediaType.TEXT_HTML_VALUE, MediaType.APPLICATION_JSON_VALUE})
    ResponseEntity<String> experiment(@PathVariable("id") UUID id,
            @Parameter(description = "timeline window start, simulated seconds (default 0)") @RequestParam(name = "from", required = false) Double from,
            @Parameter(description = "timeline window end, simulated seconds (default from + schedlab.reports.timeline-window)") @RequestParam(name = "to", required = false) Double to) {
        Experiment e = experiments.get(id);
        double start = from == null ? 0 : from;
        double end = to == null ? start + properties.timelineWindow().toNanos() / 1e9 : to;
        if (!(start >= 0) || !(end > start) || Double.isInfinite(end)) {
            throw new BadParameterException(to != null ? "to" : "from", "the window must be 0 <= from < to (seconds)");
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("experiment", e);
        Path trace = traces.resolve(id + ".csv");
        boolean traced = Files.isRegularFile(trace);
        Map<String, String> links = new LinkedHashMap<>();
        links.put("self", "/api/v1/experiments/" + id);
        links.put("results", "/api/v1/experiments/" + id + "/results");
        links.put("trace", "/api/v1/experiments/" + id + "/trace");
        if (traced) {
            links.put("perfetto", "/api/v1/experiments/" + id + "/trace.perfetto.json"); // for ui.perfetto.dev
        }
        data.put("links", links);
        if (e.status() == ExperimentStatus.SUCCEEDED) {
            data.put("result", json.readTree(experiments.resultJson(id)));
            data.put("timeline", traced ? TraceTimeline.read(trace, Math.round(start * 1e9),
                    Math.round(end * 1e9), properties.maxTimelineSegments()) : null);
        }
        String title = "Experiment " + (e.name() == null ? id : e.name());
        return html(ReportPage.render("experiment", title, json.writeValueAsString(data)));
    }

    @Operation(operationId = "getSweepReport", summary = "HTML report: metric-vs-parameter curves per variant with error bars (95% CI) and the table with +-sd and % vs baseline")
    @ApiResponses({
        @ApiResponse(responseCode = "200", description = "the page (scripts and styles from this service only)", content = @Content(mediaType = MediaType.TEXT_HTML_VALUE, schema = @Schema(type = "string"))),
        @ApiResponse(responseCode = "400", description = "the id is not a UUID", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class))),
        @ApiResponse(responseCode = "404", description = "no sweep with this id visible to this API key (another submitter's is not found)", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/sweeps/{id}/report", produces = {MediaType.TEXT_HTML_VALUE, MediaType.APPLICATION_JSON_VALUE})
    ResponseEntity<String> sweep(@PathVariable("id") UUID id) {
        Sweep s = sweeps.get(id);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("sweep", s);
        data.put("table", s.table() != null ? s.table() : sweeps.table(id));
        JsonNode definition = json.readTree(sweeps.definition(id));
        data.put("axes", definition.path("axes"));
        data.put("metrics", definition.path("metrics")); // pointer, scale, computed: each chart's unit
        data.put("links", Map.of("self", "/api/v1/sweeps/" + id, "csv", "/api/v1/sweeps/" + id + "/table.csv"));
        String title = "Sweep " + (s.name() == null ? id : s.name());
        return html(ReportPage.render("sweep", title, json.writeValueAsString(data)));
    }

    private static ResponseEntity<String> html(String page) {
        // a report shows a run that may still change and, with API keys, one key's work: never stored by a cache
        return ResponseEntity.ok().contentType(new MediaType(MediaType.TEXT_HTML, java.nio.charset.StandardCharsets.UTF_8))
                .cacheControl(org.springframework.http.CacheControl.noStore()).body(page);
    }
}

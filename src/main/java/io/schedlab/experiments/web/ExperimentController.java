package io.schedlab.experiments.web;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentService;
import io.schedlab.experiments.ExperimentSpecReader;
import io.schedlab.experiments.ExperimentStatus;
import io.schedlab.experiments.SubmissionRules;
import io.schedlab.experiments.ValidatedExperiment;
import io.schedlab.experiments.persistence.ExperimentFilter;
import io.schedlab.web.BadParameterException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
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
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Submit, validate, list, read and cancel experiments. The body is read as bytes so it is stored exactly as sent. */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "experiments")
class ExperimentController {

    private static final int MAX_LABEL_FILTERS = 10;
    private static final int MAX_NAME_FILTER_LENGTH = SubmissionRules.MAX_NAME_LENGTH;
    private static final int MAX_PAGE = 1_000_000;

    private final ExperimentService service;
    private final ExperimentSpecReader reader = new ExperimentSpecReader();

    ExperimentController(ExperimentService service) {
        this.service = service;
    }

    @Operation(operationId = "submitExperiment", summary = "Validate, store and enqueue an experiment (202), or with dryRun=true only validate (200)",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = ExperimentSpec.class))))
    @PostMapping(path = "/experiments", consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> submit(@RequestBody byte[] body,
            @Parameter(description = "only validate and return the normalized input; nothing is stored")
            @RequestParam(name = "dryRun", defaultValue = "false") boolean dryRun) {
        if (dryRun) {
            return ResponseEntity.ok(validation(service.validate(body)));
        }
        Experiment e = service.submit(body);
        return ResponseEntity.accepted().location(URI.create("/api/v1/experiments/" + e.id()))
                .body(ExperimentResponse.of(e));
    }

    @Operation(operationId = "validateExperiment", summary = "Fully validate an experiment and return it normalized; nothing is stored",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(mediaType = "application/json", schema = @Schema(implementation = ExperimentSpec.class))))
    @PostMapping(path = "/experiments:validate", consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    ValidationResponse validate(@RequestBody byte[] body) {
        return validation(service.validate(body));
    }

    @Operation(operationId = "listExperiments", summary = "Experiments, newest first, filtered by status, name and labels")
    @GetMapping(path = "/experiments", produces = MediaType.APPLICATION_JSON_VALUE)
    ExperimentPageResponse list(
            @Parameter(description = "zero-based page") @RequestParam(name = "page", defaultValue = "0") int page,
            @Parameter(description = "page size, 1..100") @RequestParam(name = "size", defaultValue = "20") int size,
            @Parameter(description = "QUEUED, RUNNING, SUCCEEDED, FAILED or CANCELLED")
            @RequestParam(name = "status", required = false) String status,
            @Parameter(description = "case-insensitive substring of the name")
            @RequestParam(name = "name", required = false) String name,
            @Parameter(description = "key:value, repeatable; all must match")
            @RequestParam(name = "label", required = false) List<String> label) {
        if (page < 0 || page > MAX_PAGE) {
            throw new BadParameterException("page", "must be between 0 and " + MAX_PAGE);
        }
        if (size < 1 || size > ExperimentService.MAX_PAGE_SIZE) {
            throw new BadParameterException("size", "must be between 1 and " + ExperimentService.MAX_PAGE_SIZE);
        }
        if (name != null && name.length() > MAX_NAME_FILTER_LENGTH) {
            throw new BadParameterException("name", "at most " + MAX_NAME_FILTER_LENGTH + " characters");
        }
        return ExperimentPageResponse.of(service.list(new ExperimentFilter(parseStatus(status), name, parseLabels(label),
                page, size)));
    }

    @Operation(operationId = "getExperiment", summary = "Status, progress, timestamps and result summary of one experiment")
    @GetMapping(path = "/experiments/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    ExperimentResponse get(@PathVariable("id") UUID id) {
        return ExperimentResponse.of(service.get(id));
    }

    @Operation(operationId = "getExperimentInput", summary = "The input exactly as sent and normalized (every default filled in)")
    @GetMapping(path = "/experiments/{id}/input", produces = MediaType.APPLICATION_JSON_VALUE)
    ExperimentInputResponse input(@PathVariable("id") UUID id) {
        ExperimentService.StoredInput in = service.input(id);
        return new ExperimentInputResponse(in.raw(), reader.readStored(in.normalizedJson(), ExperimentSpec.class));
    }

    @Operation(operationId = "cancelExperiment", summary = "Cancel a QUEUED or RUNNING experiment (409 when already finished)")
    @PostMapping(path = "/experiments/{id}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ExperimentResponse> cancel(@PathVariable("id") UUID id) {
        return ResponseEntity.accepted().body(ExperimentResponse.of(service.cancel(id)));
    }

    @Operation(operationId = "deleteExperiment", summary = "Same as cancel: stop a QUEUED or RUNNING experiment (the record is kept)")
    @DeleteMapping(path = "/experiments/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ExperimentResponse> delete(@PathVariable("id") UUID id) {
        return cancel(id);
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

    private static Map<String, String> parseLabels(List<String> labels) {
        Map<String, String> out = new LinkedHashMap<>();
        if (labels == null) {
            return out;
        }
        if (labels.size() > MAX_LABEL_FILTERS) {
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

package io.schedlab.experiments.web;

import io.schedlab.engine.Engine;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import io.schedlab.web.ApiErrors;
import io.schedlab.web.ProblemSchema;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.Locale;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The scheduler policies and workload types the engine knows, straight from its registry. */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "catalog")
class CatalogController {

    private final Engine engine;

    CatalogController(Engine engine) {
        this.engine = engine;
    }

    @Operation(operationId = "listSchedulers", summary = "Every scheduler policy with its hypervisor, parameters, defaults, bounds and units",
            responses = {
                @ApiResponse(responseCode = "200", description = "every registered policy", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, array = @ArraySchema(schema = @Schema(implementation = SchedulerView.class)))),
                @ApiResponse(responseCode = "406", description = "the Accept header allows no JSON: not-acceptable", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/schedulers", produces = MediaType.APPLICATION_JSON_VALUE)
    List<SchedulerView> schedulers() {
        return engine.registry().policies().stream().map(CatalogController::view).toList();
    }

    @Operation(operationId = "listWorkloads", summary = "Every workload type with its parameters, defaults, bounds and units",
            responses = {
                @ApiResponse(responseCode = "200", description = "every registered workload type", content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, array = @ArraySchema(schema = @Schema(implementation = WorkloadView.class)))),
                @ApiResponse(responseCode = "406", description = "the Accept header allows no JSON: not-acceptable", content = @Content(mediaType = ApiErrors.PROBLEM_JSON, schema = @Schema(implementation = ProblemSchema.class)))})
    @GetMapping(path = "/workloads", produces = MediaType.APPLICATION_JSON_VALUE)
    List<WorkloadView> workloads() {
        return engine.registry().workloads().stream().map(CatalogController::view).toList();
    }

    /**
     * A scheduler policy as listed, with the hypervisor ({@code xen} or {@code kvm}) that offers it, the per-VM and
     * per-vCPU parameters its VMs may set and the statistics it reports in the result document's
     * {@code policyStatistics}.
     */
    record SchedulerView(String name, String hypervisor, String description, List<ParameterView> parameters,
            List<ParameterView> vmParameters, List<ParameterView> vcpuParameters, List<StatisticView> statistics) {
    }

    /** One per-policy statistic: name, unit, meaning, and whether vCPUs report it too. */
    record StatisticView(String name, String unit, String description, boolean perVcpu) {
    }

    /** A workload type as listed; {@code unit} is what its headline figure is measured in. */
    record WorkloadView(String type, String description, String unit, List<ParameterView> parameters) {
    }

    /** One parameter: JSON type, default, inclusive bounds, allowed values, unit, meaning, source of the default. */
    record ParameterView(String name, String type, Object defaultValue, Double min, Double max,
            List<String> allowedValues, String unit, String description, String source) {
    }

    private static SchedulerView view(PolicyDescriptor p) {
        return new SchedulerView(p.name(), p.hypervisor(), p.description(), params(p.parameters()),
                params(p.vmParameters()), params(p.vcpuParameters()), p.statistics().stream()
                        .map(s -> new StatisticView(s.name(), s.unit(), s.description(), s.perVcpu())).toList());
    }

    private static WorkloadView view(WorkloadDescriptor w) {
        return new WorkloadView(w.type(), w.description(), w.unit(), params(w.parameters()));
    }

    private static List<ParameterView> params(List<ParameterSpec> specs) {
        return specs == null ? List.of() : specs.stream().map(s -> new ParameterView(s.name(),
                s.type().name().toLowerCase(Locale.ROOT).replace('_', '-'), s.defaultValue(), s.min(), s.max(),
                s.allowedValues(), s.unit(), s.description(), s.source())).toList();
    }
}

package io.schedlab.engine.workloads;

import io.schedlab.engine.params.Params;
import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.workloads.Workload;
import java.util.List;
import java.util.function.Function;

/** A workload type in the registry: name, one-line description, the unit it reports in, parameters, factory. */
public record WorkloadDescriptor(String type, String description, String unit, List<ParameterSpec> parameters,
        Function<Params, Workload> factory) {
}

package io.schedlab.engine.spec;

import java.util.Map;

/** A workload by registry type name with its parameters (validated against the registry). */
public record WorkloadSpec(String type, Map<String, Object> params) {
}

package io.schedlab.engine.spec;

import java.util.Map;

/** The hypervisor scheduler policy by registry name, with its parameters (validated against the registry). */
public record SchedulerSpec(String policy, Map<String, Object> params) {
}

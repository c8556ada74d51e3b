package io.schedlab.engine.spec;

import java.util.List;

/** Per-vCPU affinity override: null lists keep the VM-wide setting. */
public record VcpuAffinitySpec(Integer vcpu, List<Integer> hard, List<Integer> soft) {
}

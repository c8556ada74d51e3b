package io.schedlab.engine.spec;

import java.util.List;

/**
 * A VM (domain): vCPUs, weight and cap, affinities, memory and its NUMA node, initial vCPU
 * placement, and the workload its guest runs. {@code hardAffinity}/{@code softAffinity} apply to
 * every vCPU; {@code vcpuAffinity} overrides them per vCPU. {@code placement[i]} is the pCPU
 * where vCPU i starts (Xen's v->processor), so an imbalance such as seed 001's can be expressed.
 */
public record VmSpec(
        String name,
        Integer vcpus,
        Integer weight,
        Integer cap,
        List<Integer> hardAffinity,
        List<Integer> softAffinity,
        List<VcpuAffinitySpec> vcpuAffinity,
        Integer memoryMb,
        Integer numaNode,
        List<Integer> placement,
        Double startAtSeconds,
        WorkloadSpec workload) {
}

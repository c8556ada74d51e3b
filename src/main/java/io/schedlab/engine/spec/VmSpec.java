package io.schedlab.engine.spec;

import java.util.List;
import java.util.Map;

/**
 * A VM (domain): vCPUs, weight and cap, affinities, memory and its NUMA node, initial vCPU
 * placement, and the workload its guest runs. {@code hardAffinity}/{@code softAffinity} apply to
 * every vCPU; {@code vcpuAffinity} overrides them per vCPU. {@code placement[i]} is the pCPU
 * where vCPU i starts (Xen's v->processor), so an imbalance such as seed 001's can be expressed.
 * {@code schedParams} and {@code vcpuSchedParams} are the policy's per-VM and per-vCPU parameters
 * (declared in its descriptor; e.g. RTDS period and budget). {@code placementRule} names what chose the
 * placement ({@link InitialPlacement}): {@code hypervisor-default} (the default when {@code placement} is
 * absent: where the modelled release creates the vCPUs), {@code round-robin}, or {@code explicit} (the
 * default when {@code placement} is given); the normalized spec carries both the rule and the pCPUs.
 * {@code memoryPlacement} is where the guest's memory lives: {@code local} (the default: all of it on
 * {@code numaNode}, as Xen allocates with numa=on) or {@code striped} (spread evenly over every node, as
 * interleaved memory is; Xen with numa=off instead fills memory from the top address zone down, which the V2
 * scenario expresses as {@code local} memory on the node the allocator reaches, see V2NumaPlacement).
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
        WorkloadSpec workload,
        Map<String, Object> schedParams,
        List<VcpuSchedParamsSpec> vcpuSchedParams,
        String placementRule,
        String memoryPlacement) {

    /** memoryPlacement values: all memory on the VM's node, or spread evenly over every node. */
    public static final String MEMORY_LOCAL = "local";
    public static final String MEMORY_STRIPED = "striped";

    /** A VM whose memory placement is the default (local to its node). */
    public VmSpec(String name, Integer vcpus, Integer weight, Integer cap, List<Integer> hardAffinity,
            List<Integer> softAffinity, List<VcpuAffinitySpec> vcpuAffinity, Integer memoryMb, Integer numaNode,
            List<Integer> placement, Double startAtSeconds, WorkloadSpec workload, Map<String, Object> schedParams,
            List<VcpuSchedParamsSpec> vcpuSchedParams, String placementRule) {
        this(name, vcpus, weight, cap, hardAffinity, softAffinity, vcpuAffinity, memoryMb, numaNode, placement,
                startAtSeconds, workload, schedParams, vcpuSchedParams, placementRule, null);
    }

    /** Whether the guest's memory is striped over every node (absent = local). */
    public boolean memoryStriped() {
        return MEMORY_STRIPED.equals(memoryPlacement);
    }

    /** A VM whose placement rule is the default (explicit with a placement, else the hypervisor's). */
    public VmSpec(String name, Integer vcpus, Integer weight, Integer cap, List<Integer> hardAffinity,
            List<Integer> softAffinity, List<VcpuAffinitySpec> vcpuAffinity, Integer memoryMb, Integer numaNode,
            List<Integer> placement, Double startAtSeconds, WorkloadSpec workload, Map<String, Object> schedParams,
            List<VcpuSchedParamsSpec> vcpuSchedParams) {
        this(name, vcpus, weight, cap, hardAffinity, softAffinity, vcpuAffinity, memoryMb, numaNode, placement,
                startAtSeconds, workload, schedParams, vcpuSchedParams, null);
    }

    /** A VM without scheduling parameters (the policy's defaults). */
    public VmSpec(String name, Integer vcpus, Integer weight, Integer cap, List<Integer> hardAffinity,
            List<Integer> softAffinity, List<VcpuAffinitySpec> vcpuAffinity, Integer memoryMb, Integer numaNode,
            List<Integer> placement, Double startAtSeconds, WorkloadSpec workload) {
        this(name, vcpus, weight, cap, hardAffinity, softAffinity, vcpuAffinity, memoryMb, numaNode, placement,
                startAtSeconds, workload, null, null);
    }
}

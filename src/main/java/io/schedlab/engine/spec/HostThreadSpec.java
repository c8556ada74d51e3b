package io.schedlab.engine.spec;

/**
 * Host threads that are not vCPUs (a host {@code make}, I/O threads), run by the host Linux scheduler
 * beside the vCPU threads (KVM only): {@code threads} host threads named {@code name}, each with the
 * Linux {@code nice} value (-20..19, default 0), running the threads of {@code workload}.
 */
public record HostThreadSpec(String name, Integer threads, Integer nice, WorkloadSpec workload) {
}

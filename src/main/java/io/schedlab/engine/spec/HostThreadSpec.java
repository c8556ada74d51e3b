package io.schedlab.engine.spec;

import java.util.List;

/**
 * Host threads that are not vCPUs (a host {@code make}, I/O threads), run by the host Linux scheduler
 * beside the vCPU threads (KVM only): {@code threads} host threads named {@code name}, each with the
 * Linux {@code nice} value (-20..19, default 0), running the threads of {@code workload}. {@code serves}
 * names the guests whose I/O the threads do (vhost workers and the kworkers they wake): the group and those
 * guests signal one another through one set of semaphores, as QEMU hands vhost the guest's ioeventfd (kick)
 * and irqfd (interrupt) eventfds. {@code cpus} binds the threads to those host CPUs (sched_setaffinity, or
 * kthread_bind for per-CPU kernel threads); absent, they may run on every CPU. {@code cgroup} names the cgroup (cpu
 * controller, a child of the root) the threads run in (QEMU's vhost workers live in the guest's cgroup under
 * libvirt's machine.slice, kernel workers in the root); absent, the root group.
 */
public record HostThreadSpec(String name, Integer threads, Integer nice, WorkloadSpec workload, List<String> serves,
        List<Integer> cpus, String cgroup) {

    /** A group in the root cgroup. */
    public HostThreadSpec(String name, Integer threads, Integer nice, WorkloadSpec workload, List<String> serves,
            List<Integer> cpus) {
        this(name, threads, nice, workload, serves, cpus, null);
    }

    /** A group that serves no guest and may run on every CPU. */
    public HostThreadSpec(String name, Integer threads, Integer nice, WorkloadSpec workload) {
        this(name, threads, nice, workload, null, null, null);
    }
}

package io.schedlab.engine.catalogue;

import static io.schedlab.engine.catalogue.Specs.experiment;
import static io.schedlab.engine.catalogue.Specs.host;
import static io.schedlab.engine.catalogue.Specs.vm;
import static io.schedlab.engine.catalogue.Specs.workload;

import io.schedlab.engine.catalogue.ScenarioTable.RatioReference;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.HostThreadSpec;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * V7: CFS -> EEVDF on a KVM host (Tobias Huschle, LKML 2023-11-16, "EEVDF/vhost regression (bisected to
 * 86bfbb7ce4f6 sched/fair: Add lag based placement)"): uperf streams between two guests through vhost-net; a
 * vhost worker's signal wakes the kworker of its CPU (irqfd_inject), which must run before the receiving guest
 * hears of the data. With lag placement the woken kworker's lag keeps it from preempting the busy worker, whose
 * cond_resched() then does not switch; the kworker (root cgroup) competes with the entity of the cgroup that holds the
 * vhost worker and the vCPU threads, whose weight on that CPU is a share of the group's. Throughput falls 78 -> 29 Gb/s (41 at 6.7-rc1) and perf sched's worst
 * wait grows from 3.077 ms to 366.314 ms (a kworker, 6.6-rc7).
 */
final class V7EevdfVhostKworker {

    static final List<String> COLUMNS = List.of("CFS (parent of 86bfbb7ce4f6)", "lag placement (86bfbb7ce4f6)",
            "EEVDF (6.6-rc7, 6.7-rc1)");
    static final List<String> ROWS = List.of("uperf throughput (Gb/s)", "perf sched max wait (ms)");
    /** The post's TEST SUMMARY: 78 Gb/s before 86bfbb7ce4f6, 29 with it, 41 at 6.7-rc1. */
    static final double[] THROUGHPUT_GBPS = {78, 29, 41};
    /** perf sched latency -s max: 3.077 ms (CPU 2/KVM, last good commit), 366.314 ms (kworker/19:2, 6.6-rc7). */
    static final double[] MAX_WAIT_MS = {3.077, Double.NaN, 366.314};
    /** KVM host: 12 dedicated IFLs, SMT-2 (24 Linux CPUs). */
    static final int CORES = 12;
    static final int SMT = 2;
    /** KVM guests: 8 vCPUs each. */
    static final int GUEST_VCPUS = 8;
    /** Each guest has 4 vhost queues (<driver name="vhost" queues="4"/>). */
    static final int QUEUES = 4;
    /**
     * The cgroup libvirt puts a guest's QEMU under (systemd's machine.slice): the vCPU threads and, since 6.4's
     * vhost_task (drivers/vhost/vhost.c vhost_worker_create -> vhost_task_create, a thread of QEMU's process), the
     * vhost workers; the per-CPU kworker that runs irqfd_inject stays in the root cgroup. The post names no cgroups;
     * libvirt's default placement.
     */
    static final String MACHINE_SLICE = "machine.slice";
    /**
     * The host's tick: the trace's sched_stat_runtime of the running vhost every 10 ms (576.171155, .181155,
     * .191154, .201155) is CONFIG_HZ 100.
     */
    static final int HZ = 100;
    /**
     * A connection's window once receive-buffer autotuning (net/ipv4/tcp_input.c tcp_rcv_space_adjust) has grown it
     * to net.ipv4.tcp_rmem[2], 6 MiB (net/ipv4/tcp.c tcp_init), as a long bulk stream does.
     */
    static final long WINDOW_BYTES = 6L << 20;
    static final String SERVER = "uperf-server";
    static final String CLIENT = "uperf-client";

    private V7EevdfVhostKworker() {
    }

    static Scenario build(boolean quick) {
        double seconds = quick ? 2 : 6;
        List<ScenarioRun> runs = new ArrayList<>();
        for (int c = 0; c < COLUMNS.size(); c++) {
            String label = COLUMNS.get(c);
            List<Measure> measures = new ArrayList<>();
            measures.add(new Measure(ROWS.get(0), label, Extractors.vmHeadline(CLIENT), THROUGHPUT_GBPS[c]));
            measures.add(new Measure(ROWS.get(1), label, Extractors.distribution("runqueueWait", "max", 1e-6),
                    Double.isNaN(MAX_WAIT_MS[c]) ? null : MAX_WAIT_MS[c]));
            runs.add(new ScenarioRun(label, experiment("V7 " + label, 1, StopCondition.DURATION, seconds,
                    host(1, CORES, SMT), scheduler(c), List.of(guest(SERVER, "sender"), guest(CLIENT, "receiver")),
                    null), quick ? 1 : 3, measures, null));
        }
        ScenarioTable table = new ScenarioTable("uperf strburst throughput between two guests in Gb/s (higher is"
                + " better) and the longest wait of any task for its CPU in ms (perf sched latency -s max); pub: the"
                + " post's figures" + (quick ? " [quick: " + Specs.fmt(seconds) + " s]" : ""), "figure", ROWS,
                COLUMNS, runs, RatioReference.column(COLUMNS.get(0)));
        return new Scenario("V7", "CFS -> EEVDF on a KVM host: a woken kworker starves behind vhost (LKML"
                + " 2023-11-16)",
                List.of("Host: 1 socket x " + CORES + " cores x " + SMT + " threads (the post's 12 IFLs, SMT-2), KVM;"
                                + " two guests of " + GUEST_VCPUS + " vCPUs; " + Specs.fmt(seconds) + " s; CONFIG_HZ " + HZ + " (the trace's"
                                + " 10 ms ticks).",
                        "uperf strburst: 50 connections of 30 KiB chunks, " + SERVER + " sends, " + CLIENT
                                + " reads (net-stream); " + QUEUES + " vhost-net queues, each a host thread group of"
                                + " its vhost worker and the kworker its signals wake, serving both guests and bound"
                                + " to one CPU (vhost-net).",
                        "Columns: cfs 6.5 (the last good commit); eevdf 6.6 with runToParity off (86bfbb7ce4f6"
                                + " predates RUN_TO_PARITY, 63304558ba5d); eevdf 6.6 (6.6-rc7, and 6.7-rc1, whose"
                                + " fixes touch cgroup reweighting the model does not have).",
                        "Not in the source: the CPUs the vhost workers ran on (the trace shows one on CPU 14 beside"
                                + " kworker/14:0; here queue q's worker and kworker share CPU 2q); the guests'"
                                + " and the worker's CPU time per chunk (net-stream sendUs, receiveUs; vhost-net"
                                + " copyUs); the TCP window (tcp_rmem's maximum, where autotuning takes a bulk"
                                + " stream); the cgroups: libvirt's default, both guests' vCPU threads and the vhost"
                                + " workers (threads of QEMU's process since 6.4) in " + MACHINE_SLICE + ", the"
                                + " kworkers in the root cgroup (one group level; the machine-qemu scopes below it"
                                + " are not modelled)."),
                "throughput about two thirds lower with lag placement and half with 6.7-rc1; the worst wait"
                        + " from 3 ms to hundreds of ms", List.of(table));
    }

    private static SchedulerSpec scheduler(int column) {
        String policy = column == 0 ? "cfs" : "eevdf";
        java.util.Map<String, Object> params = column == 0 ? Specs.map("kernelVersion", "6.5", "hz", HZ)
                : column == 1 ? Specs.map("kernelVersion", "6.6", "runToParity", false, "hz", HZ)
                : Specs.map("kernelVersion", "6.6", "hz", HZ);
        return new SchedulerSpec(policy, params, "kvm", vhostQueues());
    }

    /**
     * Two groups per queue, both bound to CPU 2q (the first thread of core q) and serving both guests: the vhost
     * worker in machine.slice and the kworker its signals wake in the root cgroup.
     */
    static List<HostThreadSpec> vhostQueues() {
        List<HostThreadSpec> out = new ArrayList<>();
        for (int q = 0; q < QUEUES; q++) {
            out.add(new HostThreadSpec("vhost-q" + q, 1, 0, workload("vhost-net", "queue", q, "threads", "worker"),
                    List.of(SERVER, CLIENT), List.of(SMT * q), MACHINE_SLICE));
            out.add(new HostThreadSpec("kworker-q" + q, 1, 0,
                    workload("vhost-net", "queue", q, "threads", "kworker"), List.of(SERVER, CLIENT),
                    List.of(SMT * q), null));
        }
        return out;
    }

    private static VmSpec guest(String name, String role) {
        VmSpec v = vm(name, GUEST_VCPUS, workload("net-stream", "role", role, "queues", QUEUES, "windowBytes",
                WINDOW_BYTES));
        return new VmSpec(v.name(), v.vcpus(), v.weight(), v.cap(), v.hardAffinity(), v.softAffinity(),
                v.vcpuAffinity(), v.memoryMb(), v.numaNode(), v.placement(), v.startAtSeconds(), v.workload(),
                Specs.map("cgroup", MACHINE_SLICE), null);
    }
}

package io.schedlab.engine.workloads;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The host side of one virtio-net queue under vhost-net, run by a host thread group that {@code serves} the two
 * guests of a {@link NetStreamWorkload}: two threads, the queue's vhost worker and the kworker its signals wake.
 * The worker sleeps until a kick (drivers/vhost/vhost.c at v6.6, vhost_worker: llist_del_all, schedule() only
 * when the work list is empty), moves one chunk from the sender's ring to the receiver's per work item (handle_tx
 * / handle_rx, {@code copyUs}) and signals the receiver's call eventfd; then cond_resched(), which switches only
 * when the scheduler has set need_resched, so a worker with more queued chunks keeps its CPU. The signal runs
 * irqfd_wakeup (virt/kvm/eventfd.c), which cannot inject in atomic context on the source's host (s390:
 * kvm_arch_set_irq_inatomic returns -EWOULDBLOCK) and queues irqfd_inject on a kworker with schedule_work, a
 * per-CPU workqueue: the kworker of the worker's own CPU ({@code hostThreads[].cpus} binds both there). The
 * kworker's irqfd_inject ({@code injectUs}) delivers the chunk: the receiving guest's reader wakes. {@code threads}
 * runs only the worker or only the kworker, so that two groups (one per cgroup) can hold them.
 */
public final class VhostNetWorkload implements EndlessWorkload {

    static final String TYPE = "vhost-net";

    static final String BOTH = "both";
    static final String WORKER = "worker";
    static final String KWORKER = "kworker";

    private final int queue;
    private final String threads;
    private final long copyNanos;
    private final long injectNanos;
    private long copied;
    private long injected;

    public VhostNetWorkload(int queue, long copyNanos, long injectNanos) {
        this(queue, copyNanos, injectNanos, BOTH);
    }

    public VhostNetWorkload(int queue, long copyNanos, long injectNanos, String threads) {
        if (!List.of(BOTH, WORKER, KWORKER).contains(threads) || queue < 0 || queue >= VirtioNetQueues.MAX_QUEUES || copyNanos < 1 || injectNanos < 1) {
            throw new IllegalArgumentException("invalid vhost-net parameters");
        }
        this.queue = queue;
        this.threads = threads;
        this.copyNanos = copyNanos;
        this.injectNanos = injectNanos;
    }

    static VhostNetWorkload fromParams(Params p) {
        return new VhostNetWorkload(p.getInt("queue"), Math.round(p.getDouble("copyUs") * 1e3),
                Math.round(p.getDouble("injectUs") * 1e3), p.getString("threads"));
    }

    /** Registry entry: type, description, unit and parameters with defaults, bounds and sources. */
    public static WorkloadDescriptor descriptor() {
        return new WorkloadDescriptor(TYPE,
                "vhost-net: one virtio-net queue's vhost worker and the kworker that injects its interrupts (two host"
                        + " threads; run it in a host thread group that serves the net-stream guests); reports chunks"
                        + " per second moved", "chunks/s", List.of(
                        ParameterSpec.integer("queue", 0, 0, VirtioNetQueues.MAX_QUEUES - 1, "index",
                                "the queue this worker serves (the net-stream connections c with c mod queues = queue)",
                                "QEMU -netdev tap,vhost=on,queues=N: one vhost worker per queue pair"),
                        ParameterSpec.choice("threads", BOTH, List.of(BOTH, WORKER, KWORKER),
                                "which of the queue's two threads this group runs: both (worker, then kworker), or"
                                        + " one, so that the worker and the kworker can sit in different cgroups (give"
                                        + " the group as many threads)",
                                "drivers/vhost/vhost.c at v6.6: the worker is QEMU's vhost_task; the kworker is a"
                                        + " per-CPU kernel thread of the root cgroup"),
                        ParameterSpec.number("copyUs", 3, 0.001, 1e6, "us",
                                "the worker's CPU time per chunk: handle_tx on the sender's ring and handle_rx into"
                                        + " the receiver's",
                                "workload choice, UNVERIFIED: a 30 KiB copy at ~10 GB/s"),
                        ParameterSpec.number("injectUs", 5.4, 0.001, 1e6, "us",
                                "the kworker's CPU time per interrupt it injects (irqfd_inject)",
                                "LKML 2023-11-16 (EEVDF/vhost regression), perf sched latency before 86bfbb7ce4f6:"
                                        + " kworker/22:3 342.944 ms over 63,417 switches")),
                VhostNetWorkload::fromParams);
    }

    @Override
    public void start(WorkloadEnv env) {
        if (!KWORKER.equals(threads)) {
            // the worker: wait for a kick -> copy one chunk -> signal the receiver (wakes the kworker) -> next kick
            env.spawn(new SemaphoreRelay(null, VirtioNetQueues.kick(queue), copyNanos,
                    VirtioNetQueues.interrupt(queue), () -> copied++));
        }
        if (!WORKER.equals(threads)) {
            // the kworker: wait for a signal -> irqfd_inject -> the receiving guest's reader wakes
            env.spawn(new SemaphoreRelay(null, VirtioNetQueues.interrupt(queue), injectNanos,
                    VirtioNetQueues.delivered(queue), () -> injected++));
        }
    }

    @Override
    public WorkloadReport report(long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        Map<String, Double> details = new LinkedHashMap<>();
        details.put("chunksCopied", (double) copied);
        details.put("interruptsInjected", (double) injected);
        return new WorkloadReport("chunks moved", seconds > 0 ? copied / seconds : 0, "chunks/s", true, null,
                details);
    }
}

package io.schedlab.engine.policies;

import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.params.Params;
import java.util.List;
import java.util.random.RandomGenerator;

/** What the simulator offers a policy: the clock, the host, vCPUs, tickling, timers and a seeded random stream. */
public interface SchedulerContext {

    /** Current simulated time in nanoseconds. */
    long now();

    Topology topology();

    /**
     * The host's online CPUs (num_online_cpus): the topology's pCPUs, or all hardware threads when the
     * topology shows scheduling resources (core scheduling), as credit2 sizes its run queues by them.
     */
    default int onlineCpus() {
        return topology().size();
    }

    /** Live VMs in creation order. */
    List<Vm> vms();

    /** Raise SCHEDULE_SOFTIRQ on pCPU id: the simulator runs {@code doSchedule} there shortly (IPI latency). */
    void tickle(int pcpu);

    /** Run {@code action} at simulated time {@code at} (>= now); returns a handle to cancel it. */
    TimerHandle setTimer(long at, Runnable action);

    /** The policy's own deterministic random stream. */
    RandomGenerator random();

    /** Nanoseconds the vCPU has run since it last started running (0 when not running). */
    long runningFor(Vcpu v);

    /** True when the vCPU is running and busy-waiting in its guest (spinning on a lock); KVM's pause-loop exits ask it. */
    boolean isSpinning(Vcpu v);

    /** The vCPU's effective per-vCPU scheduling parameters (declared in the policy descriptor, all defaults filled). */
    Params schedParams(Vcpu v);

    /** The VM's per-VM scheduling parameters (declared in the policy descriptor, all defaults filled). */
    Params schedParams(Vm vm);

    /** A cancellable timer. */
    interface TimerHandle {
        void cancel();
    }
}

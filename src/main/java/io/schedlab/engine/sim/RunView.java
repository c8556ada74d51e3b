package io.schedlab.engine.sim;

import io.schedlab.engine.hypervisor.HypervisorStatistics;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.policies.CoreScheduled;
import io.schedlab.engine.policies.SelfCheckAssumptions;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.output.Distributions;
import io.schedlab.engine.output.Migrations;
import io.schedlab.engine.spec.ExperimentSpec;
import java.util.List;
import java.util.Map;

/** A read-only view of a run, all that {@link ResultBuilder} and {@link SelfCheck} read of it. */
interface RunView {

    /** The simulated clock, ns. */
    long now();

    /** Events processed so far. */
    long events();

    /** True when the run ended early because every finite workload completed. */
    boolean stoppedEarly();

    /** The normalized experiment. */
    ExperimentSpec spec();

    /** The policy's name as the experiment gives it. */
    String policyName();

    /** The policy's registry entry. */
    PolicyDescriptor descriptor();

    /** Every VM started, by id (read-only list). */
    List<VmRun> vms();

    /** Every vCPU started, by uid (read-only list). */
    List<VcpuRun> vcpus();

    /** Number of pCPUs. */
    int pcpuCount();

    /** pCPU p of the host. */
    Pcpu pcpu(int p);

    /** The vCPU pCPU p runs (null: idle). */
    VcpuRun runningOn(int p);

    /** True while p finishes its last switch with a schedule() request waiting (its current vCPU may have stopped). */
    boolean rescheduleAfterSwitchTail(int p);

    /** Busy ns of pCPU p. */
    long busyNanos(int p);

    /** Idle ns of pCPU p, up to the start of its current idle stretch. */
    long idleNanos(int p);

    /** Overhead ns of pCPU p. */
    long overheadNanos(int p);

    /** Start of p's current idle stretch, ns. */
    long idleSince(int p);

    /** End of p's last overhead, ns. */
    long overheadUntil(int p);

    /** The result's run queue of pCPU p (fixed at the start). */
    int resultRunqueueOf(int p);

    /** The policy's run queue of pCPU p now. */
    int runqueueOf(int p);

    /** Number of run queues in the result. */
    int runqueueCount();

    /** Integral of run queue {@code rq}'s length over the run, vCPU x ns. */
    long runqueueArea(int rq);

    /** The core scheduler's counters, or null at cpu granularity. */
    CoreScheduled coreScheduling();

    /** Memory-stream work done on the memory's own NUMA node. */
    double localStreamWork();

    /** Memory-stream work done from another NUMA node. */
    double remoteStreamWork();

    /** Context switches so far. */
    long contextSwitches();

    /** Migrations so far, by distance. */
    Migrations migrations();

    /** Trace records emitted. */
    long traceRecords();

    /** The run-wide cost and latency distributions. */
    Distributions distributions();

    /** The policy's run-level statistics, sorted by name. */
    Map<String, Long> policyStatistics();

    /** The policy's statistics of v, sorted by name. */
    Map<String, Long> policyStatistics(Vcpu v);

    /** The hypervisor layer's counters, or null. */
    HypervisorStatistics hypervisorStatistics();

    /** What the policy lets the self-check assume. */
    SelfCheckAssumptions assumptions();
}

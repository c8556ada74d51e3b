package io.schedlab.engine.sim;

import io.schedlab.engine.recording.BoundedTrace;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.HostThreadSpec;
import io.schedlab.engine.spec.ParameterValues;
import io.schedlab.engine.spec.SchedParamsRules;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.VcpuAffinitySpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.workloads.Workload;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * VM starts and the timeline (xl-style actions: pin/unpin, soft affinity, weight, cap, create,
 * shutdown), and the all-complete stop condition. What an action does to scheduling (new vCPUs, a
 * vCPU moved off its pCPU, parameters, a shut-down VM's vCPUs) is a call of the schedule path.
 */
final class VmLifecycle {
    /** The clock, the pCPU count and the stop request; the other parts of the run are taken when built. */
    private final Simulator sim;
    private final ExperimentSpec spec;
    /** The vCPU and VM tables. */
    private final RunTables tables;
    private final BoundedTrace trace;
    private final GuestKernel guest;
    /** The hypervisor's schedule path. */
    private final SchedulePath path;
    private final PolicyDescriptor policy;
    final Workload[] initialWorkloads;
    private final Workload[] createdWorkloads;
    final TimelineAction[] timeline;
    /** The spec's VMs, then one per host thread group (KVM). */
    private final List<VmSpec> initialVms;
    private final List<HostThreadSpec> hostThreads;
    /** Semaphores shared by host thread groups and the guests they serve. */
    private final SemaphoreSpaces semaphoreSpaces;
    private int vmIds;
    private int pendingFinite;
    /** Finite workloads in the whole run (incl. create-vm); all-complete needs at least one. */
    private int totalFinite;

    VmLifecycle(Simulator sim, Registry registry) {
        this.sim = sim;
        this.spec = sim.spec();
        this.tables = sim.tables();
        this.trace = sim.trace();
        this.guest = sim.guest();
        this.path = sim.path();
        this.policy = registry.policy(sim.policyName()).orElseThrow();
        hostThreads = spec.scheduler().hostThreads() == null ? List.of() : spec.scheduler().hostThreads();
        semaphoreSpaces = new SemaphoreSpaces(hostThreads);
        initialVms = new ArrayList<>(spec.vms());
        for (HostThreadSpec g : hostThreads) {
            initialVms.add(HostThreadGroups.asVm(g, sim.nP()));
        }
        List<VmSpec> vms = initialVms;
        initialWorkloads = new Workload[vms.size()];
        for (int i = 0; i < initialWorkloads.length; i++) {
            initialWorkloads[i] = newWorkload(registry, vms.get(i));
            countFinite(initialWorkloads[i]);
        }
        timeline = sortedTimeline(spec.timeline());
        createdWorkloads = new Workload[timeline.length];
        for (int i = 0; i < timeline.length; i++) {
            if (timeline[i].action() == TimelineAction.Kind.CREATE_VM) {
                createdWorkloads[i] = newWorkload(registry, timeline[i].newVm());
                countFinite(createdWorkloads[i]);
            }
        }
    }

    private void countFinite(Workload w) {
        if (w.isFinite()) {
            pendingFinite++;
            totalFinite++;
        }
    }

    private static Workload newWorkload(Registry registry, VmSpec vm) {
        return registry.workload(vm.workload().type()).orElseThrow().factory()
                .apply(new Params(vm.workload().params()));
    }

    private static TimelineAction[] sortedTimeline(List<TimelineAction> actions) {
        List<TimelineAction> sorted = new ArrayList<>(actions);
        sorted.sort((a, b) -> Double.compare(a.atSeconds(), b.atSeconds())); // stable
        return sorted.toArray(new TimelineAction[0]);
    }

    /** Queues the VM starts and timeline actions (VM starts first at equal times). */
    void scheduleAll() {
        for (int i = 0; i < initialVms.size(); i++) {
            sim.push(Simulator.toNanos(initialVms.get(i).startAtSeconds()), Simulator.EV_VM_START, i, 0);
        }
        for (int i = 0; i < timeline.length; i++) {
            sim.push(Simulator.toNanos(timeline[i].atSeconds()), Simulator.EV_TIMELINE, i, 0);
        }
    }

    void startInitialVm(int index) {
        int group = index - spec.vms().size();
        HostThreadSpec g = group >= 0 ? hostThreads.get(group) : null;
        startVm(initialVms.get(index), initialWorkloads[index], sim.now(), g == null ? null : g.nice(),
                g == null ? null : g.cgroup());
    }

    Vm startVm(VmSpec s, Workload workload, long at) {
        return startVm(s, workload, at, null, null);
    }

    private Vm startVm(VmSpec s, Workload workload, long at, Integer hostNice, String cgroup) {
        Vm vm = new Vm(vmIds++, s.name(), s.weight(), s.cap(), s.memoryMb(), s.numaNode(), s.memoryStriped());
        vm.hostNice = hostNice;
        vm.cgroup = cgroup;
        VmRun run = new VmRun(vm, s, workload, semaphoreSpaces.of(s.name()), !semaphoreSpaces.shared(s.name()));
        Map<String, Object> vmParams = s.schedParams() != null ? s.schedParams()
                : ParameterValues.normalize(null, policy.vmParameters());
        run.schedParams = new Params(vmParams);
        run.startedAt = at;
        run.countedFinite = workload.isFinite();
        int firstUid = tables.nextVcpuUid();
        for (int i = 0; i < s.vcpus(); i++) {
            Vcpu v = new Vcpu(vm, i, firstUid + i, s.placement().get(i));
            setAffinity(v.hardAffinity, hardOf(s, i));
            setAffinity(v.softAffinity, softOf(s, i));
            vm.vcpus.add(v);
            VcpuRun vr = new VcpuRun(v, run, sim.nP());
            vr.schedParams = new Params(SchedParamsRules.vcpuParams(policy, s, i));
            vr.stateSince = at;
            run.vcpus.add(vr);
        }
        tables.add(run);
        path.addVcpus(run, at);
        if (trace.enabled()) {
            trace.record(at, -1, "vm-start", vm.name, -1);
        }
        guest.startWorkload(run);
        checkAllComplete();
        return vm;
    }

    private static List<Integer> hardOf(VmSpec s, int i) {
        for (VcpuAffinitySpec o : s.vcpuAffinity()) {
            if (o.vcpu() == i) {
                return o.hard();
            }
        }
        return s.hardAffinity();
    }

    private static List<Integer> softOf(VmSpec s, int i) {
        for (VcpuAffinitySpec o : s.vcpuAffinity()) {
            if (o.vcpu() == i) {
                return o.soft();
            }
        }
        return s.softAffinity();
    }

    private static void setAffinity(BitSet set, List<Integer> cpus) {
        set.clear();
        for (int c : cpus) {
            set.set(c);
        }
    }

    void applyTimeline(TimelineAction a, int index) {
        if (a.action() == TimelineAction.Kind.CREATE_VM) {
            startVm(a.newVm(), createdWorkloads[index], sim.now());
            return;
        }
        VmRun run = liveVm(a.vm());
        if (run == null) {
            return; // not started yet or already shut down: nothing to act on
        }
        switch (a.action()) {
            case PIN, UNPIN -> {
                for (VcpuRun vr : targets(run, a.vcpu())) {
                    setAffinity(vr.v.hardAffinity, a.pcpus());
                    vr.affinityChangedAt = sim.now();
                    path.hardAffinityChanged(vr);
                }
            }
            case SOFT_AFFINITY -> {
                for (VcpuRun vr : targets(run, a.vcpu())) {
                    setAffinity(vr.v.softAffinity, a.pcpus());
                    path.softAffinityChanged(vr);
                }
            }
            case SET_WEIGHT -> {
                run.vm.weight = a.weight();
                path.domainParamsChanged(run.vm);
            }
            case SET_CAP -> {
                run.vm.cap = a.cap();
                path.domainParamsChanged(run.vm);
            }
            case SHUTDOWN -> shutdown(run);
            case SET_SCHED_PARAMS -> setSchedParams(run, a);
            default -> throw new IllegalStateException("unhandled action " + a.action());
        }
    }

    /** xl sched-* -d DOM [-v N]: the VM's parameters (and the same names of each vCPU's), or one vCPU's. */
    private void setSchedParams(VmRun run, TimelineAction a) {
        if (a.vcpu() == null) {
            run.schedParams = new Params(SchedParamsRules.merge(run.schedParams.asMap(), a.params(),
                    policy.vmParameters()));
        }
        for (VcpuRun vr : targets(run, a.vcpu())) {
            vr.schedParams = new Params(SchedParamsRules.merge(vr.schedParams.asMap(), a.params(),
                    policy.vcpuParameters()));
            path.schedParamsChanged(vr);
        }
    }

    private VmRun liveVm(String name) {
        for (VmRun r : tables.vms()) {
            if (r.vm.alive && r.vm.name.equals(name)) {
                return r;
            }
        }
        return null;
    }

    private static List<VcpuRun> targets(VmRun run, Integer vcpu) {
        return vcpu == null ? run.vcpus : List.of(run.vcpus.get(vcpu));
    }

    private void shutdown(VmRun run) {
        Vm vm = run.vm;
        vm.alive = false;
        guest.killThreads(run);
        path.removeVcpus(run);
        tables.ended(vm);
        // A vCPU switched in but still inside the switch overhead leaves at the end of that overhead.
        long end = sim.now();
        for (VcpuRun vr : run.vcpus) {
            end = Math.max(end, vr.stateSince);
        }
        run.endedAt = end;
        if (run.countedFinite && run.completedAt < 0) {
            pendingFinite--;
        }
        if (trace.enabled()) {
            trace.record(sim.now(), -1, "shutdown", vm.name, -1);
        }
        checkAllComplete();
    }

    /** A finite VM's last thread exited. */
    void vmCompleted(VmRun run) {
        run.completedAt = sim.now();
        if (run.countedFinite) {
            pendingFinite--;
        }
        checkAllComplete();
    }

    private void checkAllComplete() {
        if (sim.stopWhenComplete() && totalFinite > 0 && pendingFinite <= 0) {
            sim.requestStop();
        }
    }
}

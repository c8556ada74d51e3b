package io.schedlab.engine.policies.coresched;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.CoreScheduled;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.policies.SelfCheckAssumptions;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Xen core scheduling (xen/common/sched/core.c, 4.13+, Juergen Gross "xen: add core scheduling
 * support"): the inner policy (credit or credit2, unchanged) schedules units on scheduling resources;
 * this class maps them onto the host's vCPUs and pCPUs.
 * <ul>
 * <li>A decision on any pCPU of a resource (a tickle of the resource, its slice timer, its unit going to
 * sleep, a yield) asks the inner policy for the resource's next unit; then every sibling joins
 * (schedule() raises SCHED_SLAVE_SOFTIRQ, sched_wait_rendezvous_in): here each sibling runs its
 * schedule path at the same instant, and every pCPU of the resource pays {@code rendezvousNanos}.
 * Xen rendezvouses on every schedule() of a resource, also when the unit stays.</li>
 * <li>pCPU k of a resource runs member k of the current unit when it is runnable, else idles
 * (sched_unit2vcpu_cpu); a member that blocks or wakes while its unit runs switches alone
 * (vcpu_sleep_nosync_locked / vcpu_wake: force_context_switch, sched_force_context_switch).</li>
 * <li>The unit switched away from gets context_saved once all siblings have switched
 * (sched_context_switched, rendezvous_out_cnt); the unit sleeps only when no member is runnable
 * (unit_runnable).</li>
 * </ul>
 * With one pCPU per resource (cpu granularity, or core with SMT off) every call goes straight to the
 * inner policy, so results equal the inner policy's exactly. Toward the inner policy this class is the
 * schedule path: only the units' own state ({@link SchedUnit}) and the resources' current unit
 * ({@link SchedResource}) change here, never a host vCPU's state or a host pCPU's current vCPU.
 */
public final class UnitScheduler implements SchedulerPolicy, SelfCheckAssumptions, CoreScheduled {
    private final SchedulerPolicy inner;
    private final SelfCheckAssumptions innerAssumptions;
    private final SchedGranularity granularity;
    private boolean active;
    private SchedulerContext host;
    private ResourceLayout layout;
    private int unitSize;
    private IntConsumer scheduleNow;
    private long rendezvousNanos;

    /** Unit of each host vCPU (by uid) and of each unit vCPU (by its uid). */
    private final List<SchedUnit> unitOfVcpu = new ArrayList<>();
    private final List<SchedUnit> units = new ArrayList<>();
    /** Shadow domain of each host VM (by id): the units the inner policy sees in {@code vm.vcpus}. */
    private final List<Vm> shadows = new ArrayList<>();

    private long[] rendezvousCharge;
    private long[] forcedIdleNanos;
    private boolean[] idleForced;
    private long rendezvousCount;
    private long rendezvousChargedNanos;

    public UnitScheduler(SchedulerPolicy inner, SchedGranularity granularity) {
        this.inner = inner;
        this.innerAssumptions = SelfCheckAssumptions.of(inner);
        this.granularity = granularity;
    }

    @Override
    public void init(SchedulerContext ctx) {
        this.host = ctx;
        Topology topo = ctx.topology();
        unitSize = granularity.cpusPerResource(topo.coresPerSocket(), topo.threadsPerCore());
        active = unitSize > 1;
        if (!active) {
            inner.init(ctx);
            return;
        }
        layout = new ResourceLayout(topo, granularity);
        rendezvousCharge = new long[topo.size()];
        forcedIdleNanos = new long[topo.size()];
        idleForced = new boolean[topo.size()];
        inner.init(new UnitContext(ctx, this, layout.topology));
    }

    // ------------------------------------------------------------------ CoreScheduled

    @Override
    public boolean active() {
        return active;
    }

    @Override
    public void attach(IntConsumer scheduleNow, long rendezvousNanos) {
        this.scheduleNow = scheduleNow;
        this.rendezvousNanos = rendezvousNanos;
    }

    @Override
    public long takeRendezvousNanos(int pcpu) {
        long c = rendezvousCharge[pcpu];
        rendezvousCharge[pcpu] = 0;
        return c;
    }

    @Override
    public void idleEnded(int pcpu, long nanos) {
        if (idleForced[pcpu]) {
            forcedIdleNanos[pcpu] += nanos;
        }
    }

    @Override
    public void idleStarted(int pcpu) {
        idleForced[pcpu] = layout.resourceOf[pcpu].current != null;
    }

    @Override
    public long forcedIdleNanos(int pcpu) {
        return forcedIdleNanos[pcpu];
    }

    @Override
    public String granularity() {
        return granularity.toString();
    }

    @Override
    public int cpusPerResource() {
        return unitSize;
    }

    @Override
    public long rendezvousCount() {
        return rendezvousCount;
    }

    @Override
    public long rendezvousNanos() {
        return rendezvousChargedNanos;
    }

    // ------------------------------------------------------------------ units and domains

    /** The unit of a host vCPU, or the unit whose inner-policy vCPU is {@code v}. */
    SchedUnit unitOf(Vcpu v) {
        boolean isUnit = v.vm.id < shadows.size() && shadows.get(v.vm.id) == v.vm;
        return isUnit ? units.get(v.uid) : unitOfVcpu.get(v.uid);
    }

    Vm shadowOf(Vm vm) {
        return vm.id < shadows.size() ? shadows.get(vm.id) : null;
    }

    private Vm shadowFor(Vm vm) {
        while (shadows.size() <= vm.id) {
            shadows.add(null);
        }
        Vm s = shadows.get(vm.id);
        if (s == null) {
            s = new Vm(vm.id, vm.name, vm.weight, vm.cap, vm.memoryMb, vm.memoryNode, vm.memoryStriped);
            shadows.set(vm.id, s);
        }
        return s;
    }

    /**
     * sched_alloc_unit: the unit of v is the domain's vCPUs [k*size, (k+1)*size). A VM adds all its
     * vCPUs (with their affinities) before the policy hears of the first, so the unit is built whole.
     */
    private SchedUnit unitFor(Vcpu v) {
        while (unitOfVcpu.size() <= v.uid) {
            unitOfVcpu.add(null);
        }
        SchedUnit u = unitOfVcpu.get(v.uid);
        if (u != null) {
            return u;
        }
        int first = v.index / unitSize * unitSize;
        Vcpu[] members = new Vcpu[unitSize];
        for (int k = 0; k < unitSize && first + k < v.vm.vcpus.size(); k++) {
            members[k] = v.vm.vcpus.get(first + k);
        }
        Vm shadow = shadowFor(v.vm);
        Vcpu uv = new Vcpu(shadow, first / unitSize, units.size(), 0);
        u = new SchedUnit(uv, members);
        units.add(u);
        shadow.vcpus.add(uv);
        for (Vcpu m : members) {
            if (m != null) {
                while (unitOfVcpu.size() <= m.uid) {
                    unitOfVcpu.add(null);
                }
                unitOfVcpu.set(m.uid, u);
            }
        }
        setUnitAffinity(u);
        int home = layout.resourceOf[members[0].processor].id();
        uv.processor = uv.hardAffinity.get(home) ? home : uv.hardAffinity.nextSetBit(0);
        return u;
    }

    /**
     * The unit's affinity in resources: a resource whose every pCPU each member may use (hard), or
     * prefers (soft). The validator makes hard affinities whole resources, equal within a unit
     * (Xen keeps one affinity per unit: "Affinity settings of one vcpu are for the complete unit").
     */
    private void setUnitAffinity(SchedUnit u) {
        u.vcpu.hardAffinity.clear();
        u.vcpu.softAffinity.clear();
        for (SchedResource r : layout.resources) {
            if (coveredByAll(u, r, true)) {
                u.vcpu.hardAffinity.set(r.id());
            }
            if (coveredByAll(u, r, false)) {
                u.vcpu.softAffinity.set(r.id());
            }
        }
        if (u.vcpu.hardAffinity.isEmpty()) {
            throw new IllegalStateException("unit of " + u.members[0] + ": no resource lies in every member's hard"
                    + " affinity (the validator rejects such specs)");
        }
    }

    private static boolean coveredByAll(SchedUnit u, SchedResource r, boolean hard) {
        for (Vcpu m : u.members) {
            if (m == null) {
                continue;
            }
            BitSet mask = hard ? m.hardAffinity : m.softAffinity;
            for (int cpu : r.cpus) {
                if (!mask.get(cpu)) {
                    return false;
                }
            }
        }
        return true;
    }

    private int memberIndex(SchedUnit u, Vcpu v) {
        return v.index - u.vcpu.index * unitSize;
    }

    // ------------------------------------------------------------------ SchedulerPolicy

    @Override
    public void addVcpu(Vcpu v) {
        if (!active) {
            inner.addVcpu(v);
            return;
        }
        boolean isNew = unitOfVcpu.size() <= v.uid || unitOfVcpu.get(v.uid) == null;
        SchedUnit u = unitFor(v);
        if (isNew) {
            inner.addVcpu(u.vcpu);
            u.moveTo(VcpuState.BLOCKED); // as the schedule path does for the vCPUs after addVcpu
        }
    }

    @Override
    public void removeVcpu(Vcpu v) {
        if (!active) {
            inner.removeVcpu(v);
            return;
        }
        SchedUnit u = unitOf(v);
        if (--u.liveMembers > 0) {
            return;
        }
        if (u.saving || layout.resources[u.vcpu.processor].current == u) {
            u.removeAfterSave = true; // still the resource's unit: removed once switched away and saved
        } else {
            removeUnit(u);
        }
    }

    private void removeUnit(SchedUnit u) {
        inner.removeVcpu(u.vcpu);
        u.moveTo(VcpuState.OFFLINE);
    }

    @Override
    public int pickCpu(Vcpu v) {
        if (!active) {
            return inner.pickCpu(v);
        }
        SchedUnit u = unitOf(v);
        if (!u.isUnitRunnable()) {
            // The unit wakes: the inner policy places it (sched_pick_resource) in wake() below.
            u.moveTo(VcpuState.RUNNABLE);
            if (!u.saving) {
                u.vcpu.processor = inner.pickCpu(u.vcpu);
                u.needsInnerWake = true;
            }
        }
        return layout.resources[u.vcpu.processor].cpus[memberIndex(u, v)];
    }

    @Override
    public void wake(Vcpu v) {
        if (!active) {
            inner.wake(v);
            return;
        }
        SchedUnit u = unitOf(v);
        if (u.needsInnerWake) {
            u.needsInnerWake = false;
            inner.wake(u.vcpu);
        } else if (u.vcpu.state == VcpuState.RUNNING) {
            // vcpu_wake: a member of a running unit switches in alone (force_context_switch).
            host.tickle(layout.resources[u.vcpu.processor].cpus[memberIndex(u, v)]);
        }
    }

    @Override
    public void sleep(Vcpu v) {
        if (!active) {
            inner.sleep(v);
            return;
        }
        SchedUnit u = unitOf(v);
        if (u.anyMemberRunnable() || !u.isUnitRunnable()) {
            return; // siblings of v keep the unit; v's pCPU idles alone (vcpu_sleep_nosync_locked)
        }
        boolean running = u.vcpu.state == VcpuState.RUNNING;
        u.moveTo(VcpuState.BLOCKED);
        if (u.saving) {
            u.sleepDeferred = true;
            return;
        }
        u.needsInnerWake = false;
        inner.sleep(u.vcpu);
        if (running) {
            SchedResource r = layout.resources[u.vcpu.processor];
            r.wanted = true;
            if (host.topology().pcpu(v.processor).current != v) {
                host.tickle(r.master()); // nobody reschedules v's pCPU: v was not running there
            }
        }
    }

    @Override
    public Decision doSchedule(Pcpu p, Vcpu prev, boolean prevYielded) {
        if (!active) {
            return inner.doSchedule(p, prev, prevYielded);
        }
        SchedResource r = layout.resourceOf[p.id];
        int k = layout.indexInResource[p.id];
        if (r.follows[k]) {
            r.follows[k] = false;
            rendezvousCharge[p.id] += rendezvousNanos;
            rendezvousChargedNanos += rendezvousNanos;
            if (--r.pendingFollowers == 0) {
                finishRendezvous(r);
            }
            return answer(r, p, prev);
        }
        boolean decide = prevYielded || r.wanted || (r.sliceEnd != SchedResource.NEVER && host.now() >= r.sliceEnd);
        if (decide && r.pendingFollowers > 0) {
            r.wanted = true; // the last follower of the running rendezvous asks again
        } else if (decide) {
            decide(r, p, prevYielded);
        }
        return answer(r, p, prev);
    }

    /** schedule() on a resource: the inner policy picks the unit, then every sibling joins at once. */
    private void decide(SchedResource r, Pcpu p, boolean yielded) {
        r.wanted = false;
        SchedUnit prevUnit = r.current;
        Decision d = inner.doSchedule(r.pcpu, prevUnit == null ? null : prevUnit.vcpu, yielded);
        Vcpu nextVcpu = d == null ? null : d.next();
        SchedUnit next = nextVcpu == null ? null : unitOf(nextVcpu);
        if (next != null && (!nextVcpu.hardAffinity.get(r.id())
                || (next != prevUnit && nextVcpu.state != VcpuState.RUNNABLE))) {
            throw new IllegalStateException("inner policy: doSchedule on resource " + r.id() + " returned unit "
                    + nextVcpu + " which is " + nextVcpu.state + " with affinity " + nextVcpu.hardAffinity);
        }
        long now = host.now();
        r.sliceEnd = d != null && d.runNanos() >= 0 ? now + d.runNanos() : SchedResource.NEVER;
        if (next != prevUnit) {
            if (prevUnit != null) {
                prevUnit.switchedAway();
                r.savePending = prevUnit;
            }
            r.run(next, now);
        }
        rendezvousCount++;
        rendezvousCharge[p.id] += rendezvousNanos;
        rendezvousChargedNanos += rendezvousNanos;
        for (int q = 0; q < r.cpus.length; q++) {
            if (r.cpus[q] != p.id) {
                r.follows[q] = true;
                r.pendingFollowers++;
                scheduleNow.accept(r.cpus[q]);
            }
        }
    }

    /** Every sibling has switched: context_saved for the unit left behind (sched_context_switched). */
    private void finishRendezvous(SchedResource r) {
        SchedUnit u = r.savePending;
        r.savePending = null;
        if (u != null) {
            u.saving = false;
            if (u.sleepDeferred && u.vcpu.state == VcpuState.BLOCKED) {
                inner.sleep(u.vcpu);
            }
            u.sleepDeferred = false;
            inner.contextSaved(u.vcpu);
            if (u.removeAfterSave) {
                removeUnit(u);
            }
        }
        if (r.wanted) {
            host.tickle(r.master());
        }
    }

    /** What pCPU p runs: its member of the resource's unit when runnable there (sched_unit2vcpu_cpu), else idle. */
    private Decision answer(SchedResource r, Pcpu p, Vcpu prev) {
        Vcpu next = null;
        if (r.current != null) {
            Vcpu m = r.current.members[layout.indexInResource[p.id]];
            if (m != null && m.allowedOn(p.id) && (m == prev ? m.state == VcpuState.RUNNING
                    : m.state == VcpuState.RUNNABLE)) {
                next = m;
            }
        }
        long run = p.id == r.master() && r.sliceEnd != SchedResource.NEVER
                ? Math.max(0, r.sliceEnd - host.now()) : -1;
        return next == null && run < 0 ? Decision.idle() : new Decision(next, run);
    }

    void tickleResource(int resource) {
        SchedResource r = layout.resources[resource];
        r.wanted = true;
        host.tickle(r.master());
    }

    @Override
    public void contextSaved(Vcpu prev) {
        if (!active) {
            inner.contextSaved(prev);
        }
        // Units are saved when their rendezvous ends (finishRendezvous).
    }

    @Override
    public void yield(Vcpu v) {
        inner.yield(active ? unitOf(v).vcpu : v);
    }

    @Override
    public void affinityChanged(Vcpu v) {
        if (!active) {
            inner.affinityChanged(v);
            return;
        }
        SchedUnit u = unitOf(v);
        setUnitAffinity(u);
        inner.affinityChanged(u.vcpu);
    }

    @Override
    public boolean requeueTicklesIdlers() {
        return innerAssumptions.requeueTicklesIdlers();
    }

    @Override
    public void schedParamsChanged(Vcpu v) {
        inner.schedParamsChanged(active ? unitOf(v).vcpu : v);
    }

    /** The inner policy's run-level statistics (it counts per unit under core scheduling). */
    @Override
    public java.util.Map<String, Long> statistics() {
        return inner.statistics();
    }

    /** Under core scheduling a vCPU reports its unit's statistics (the inner policy schedules units). */
    @Override
    public java.util.Map<String, Long> statistics(Vcpu v) {
        return inner.statistics(active ? unitOf(v).vcpu : v);
    }

    @Override
    public void domainParamsChanged(Vm vm) {
        if (!active) {
            inner.domainParamsChanged(vm);
            return;
        }
        Vm s = shadowOf(vm);
        s.weight = vm.weight;
        s.cap = vm.cap;
        inner.domainParamsChanged(s);
    }

    @Override
    public int lockDomain(Pcpu p) {
        return inner.lockDomain(active ? layout.resourceOf[p.id].pcpu : p);
    }

    @Override
    public int runqueueOf(Pcpu p) {
        return inner.runqueueOf(active ? layout.resourceOf[p.id].pcpu : p);
    }

    @Override
    public int runqueueCount() {
        return inner.runqueueCount();
    }

    /** Under core scheduling a sibling idles beside waiting vCPUs of other domains by design. */
    @Override
    public boolean workConserving() {
        return !active && innerAssumptions.workConserving();
    }

    @Override
    public boolean boundsWaitsPerPlacement() {
        return !active && innerAssumptions.boundsWaitsPerPlacement();
    }

    @Override
    public long balancePeriodNanos() {
        return innerAssumptions.balancePeriodNanos();
    }
}

package io.schedlab.engine.sim;

import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.policies.CoreScheduled;
import io.schedlab.engine.recording.BoundedTrace;

/**
 * What the schedule path's switches do to the books: a vCPU's run starting or stopping on a pCPU (its CPU
 * time, runstate accounting, run-queue presence, cache warm-up debt, migrations, and the guest kernel and
 * hypervisor layer told), the busy, idle and overhead time of every pCPU, and their closing at the end of
 * the run. It changes no runstate: the path moves the state first, then books the change.
 */
final class RunBooks {
    /** The clock, the pCPU count and the hypervisor layer (built after the path). */
    private final Simulator sim;
    /** The vCPU and VM tables. */
    private final RunTables tables;
    private final Progress progress;
    private final BoundedTrace trace;
    private final RunLatencies latencies;
    private final Pcpu[] pcpus;
    private final GuestKernel guest;
    /** Busy, idle and overhead time of every pCPU. */
    final PcpuAccounts accounts;
    /** What each core's L2 and each socket's LLC still hold of a vCPU: the warm-up debt at switch-in. */
    private final CacheModel caches;
    /** Context switches and migrations by distance. */
    final SwitchCounters switches;
    private final RunQueueStats rqs;
    private final int[] rqOf;
    /** Core scheduling's forced-idle counters, or null. */
    private final CoreScheduled coreSched;

    RunBooks(Simulator sim, RunQueueStats rqs, int[] rqOf, CoreScheduled coreSched) {
        this.sim = sim;
        this.tables = sim.tables();
        this.progress = sim.progress();
        this.trace = sim.trace();
        this.latencies = sim.latencies();
        this.pcpus = sim.pcpus();
        this.guest = sim.guest();
        this.accounts = new PcpuAccounts(sim.nP());
        this.caches = new CacheModel(sim.topo(), sim.costs());
        this.switches = new SwitchCounters(sim.topo());
        this.rqs = rqs;
        this.rqOf = rqOf;
        this.coreSched = coreSched;
    }

    /** The RUNNING vr starts on p at {@code t} (after the switch): off its run queue, warm-up debt, a migration. */
    void started(VcpuRun vr, int p, long t) {
        Vcpu v = vr.v;
        rqs.leave(vr);
        vr.account(VcpuState.RUNNING, t);
        latencies.runqueueWait(t - vr.runnableSince);
        long debt = caches.switchIn(v.uid, p, vr.lastPcpu >= 0, vr.vm.workload.workingSetKb(), t);
        if (vr.lastPcpu >= 0 && vr.lastPcpu != p) {
            switches.migrated(vr, vr.lastPcpu, p);
            if (trace.enabled()) {
                trace.record(sim.now(), p, "migrate", v.vm.name, v.index);
            }
        }
        vr.lastPcpu = p;
        v.processor = p;
        vr.runStart = t;
        vr.runningSince = t;
        vr.lastSettle = t;
        vr.progressFrom = t + debt;
        guest.onVcpuStart(vr, t);
        guest.shootdowns().started(vr, t);
        sim.hyper().vcpuStarted(v);
    }

    /** vr (its new state already set) left p at {@code at}: its run's CPU time, and a runnable one queues again. */
    void stopped(VcpuRun vr, int p, long at) {
        Vcpu v = vr.v;
        addCpu(vr, p, Math.max(0, at - vr.runStart));
        caches.switchOut(v.uid, p, at);
        vr.planDeadline = Simulator.NEVER;
        if (v.state == VcpuState.RUNNABLE || vr.migrating) {
            vr.account(VcpuState.RUNNABLE, at);
            vr.runnableSince = at;
            if (!vr.migrating) {
                rqs.enter(vr, rqOf[v.processor]);
            }
        } else {
            vr.account(v.state, at);
        }
        guest.updateStreaming(vr, false);
        guest.shootdowns().stopped(vr, at);
        sim.hyper().vcpuStopped(v);
    }

    /** vr keeps p: its run pauses for the decision overhead from {@code start} to {@code t}. */
    void continued(VcpuRun vr, int p, long start, long t) {
        addCpu(vr, p, Math.max(0, start - vr.runStart));
        long debtLeft = Math.max(0, vr.progressFrom - start);
        vr.runStart = t;
        vr.lastSettle = t;
        vr.progressFrom = t + debtLeft;
        guest.replan(vr);
    }

    /** p's idle stretch ended after {@code ns}. */
    void idleEnded(int p, long ns) {
        accounts.addIdle(p, ns);
        if (coreSched != null) {
            coreSched.idleEnded(p, ns);
        }
    }

    /** p's overhead ran from {@code start} to {@code t}; an idle p idles from then. */
    void overhead(int p, long start, long t, boolean idle) {
        accounts.addOverhead(p, start, t);
        if (idle) {
            accounts.idleFrom(p, t);
            if (coreSched != null) {
                coreSched.idleStarted(p);
            }
        }
    }

    /**
     * The tail of p's last switch ran from {@code start} to {@code end} as its own step: the vCPU switched in
     * ({@code cur}, null when idle) starts after it, an idle p idles from then.
     */
    void switchTailEnded(int p, VcpuRun cur, long start, long end) {
        accounts.addOverhead(p, start, end);
        if (cur == null) {
            accounts.idleNotBefore(p, end);
        } else if (end > cur.runStart) {
            long shift = end - cur.runStart;
            cur.runStart = end;
            cur.lastSettle = end;
            cur.progressFrom += shift;
            guest.replan(cur);
        }
    }

    private void addCpu(VcpuRun vr, int p, long ns) {
        vr.cpuNs += ns;
        vr.timeOnPcpu.add(p, ns);
        accounts.addBusy(p, ns);
    }

    /** Closes every pCPU's books at {@code end}: the current runs and idle stretches, and the run queues. */
    void finish(long end) {
        for (int p = 0; p < sim.nP(); p++) {
            Vcpu c = pcpus[p].current;
            if (c != null) {
                VcpuRun vr = tables.vcpu(c.uid);
                progress.settle(vr);
                addCpu(vr, p, Math.max(0, end - vr.runStart));
                if (vr.runningSince > end) {
                    vr.runnableNs -= vr.runningSince - end; // still waiting for its switch to finish at the end
                }
                vr.runStart = Math.max(vr.runStart, end);
            } else {
                idleEnded(p, Math.max(0, end - accounts.idleSince(p)));
                accounts.idleNotBefore(p, end);
            }
            accounts.closeAt(p, end);
        }
        for (VcpuRun vr : tables.vcpus()) {
            if (vr.acctState != VcpuState.RUNNING) {
                vr.account(vr.acctState, end);
            }
        }
        rqs.finish();
    }
}

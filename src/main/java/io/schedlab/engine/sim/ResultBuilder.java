package io.schedlab.engine.sim;

import io.schedlab.engine.hypervisor.HypervisorStatistics;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.policies.CoreScheduled;
import io.schedlab.engine.output.EngineVersion;
import io.schedlab.engine.output.CoreSchedulingResult;
import io.schedlab.engine.output.Distributions;
import io.schedlab.engine.output.Fairness;
import io.schedlab.engine.output.Headline;
import io.schedlab.engine.output.InitialPlacementResult;
import io.schedlab.engine.output.Migrations;
import io.schedlab.engine.output.PcpuResult;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.ResultSummary;
import io.schedlab.engine.output.RunTotals;
import io.schedlab.engine.output.RunqueueResult;
import io.schedlab.engine.output.VcpuResult;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.InitialPlacement;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.workloads.WorkloadReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/** Turns a finished run, read through its {@link RunView}, into the {@link ResultDocument}. */
public final class ResultBuilder {
    private ResultBuilder() {
    }

    /** The document of a run that reached its end ({@code duration} or {@code all-complete}). */
    public static ResultDocument build(Simulator sim, long wallNanos) {
        RunView view = sim.view();
        return build(view, wallNanos, view.stoppedEarly() ? ResultDocument.STOP_ALL_COMPLETE
                : ResultDocument.STOP_DURATION);
    }

    /** The document with a given stop reason ({@code stopped} and {@code event-limit} are partial results). */
    public static ResultDocument build(Simulator sim, long wallNanos, String stopReason) {
        return build(sim.view(), wallNanos, stopReason);
    }

    private static ResultDocument build(RunView sim, long wallNanos, String stopReason) {
        long end = sim.now();
        List<VmResult> vms = new ArrayList<>();
        Map<String, Headline> headline = new LinkedHashMap<>();
        FairnessIndex fairness = new FairnessIndex();
        for (VmRun run : sim.vms()) {
            VmResult r = vmResult(sim, run, end);
            vms.add(r);
            headline.put(r.name(), r.headline());
            if (r.competing()) {
                fairness.add(r.name(), r.cpuNanosAllVcpus(), lifetime(run, end), run.vm.weight);
            }
        }
        List<PcpuResult> pcpus = new ArrayList<>();
        CoreScheduled cs = sim.coreScheduling();
        long forcedIdle = 0;
        FairnessIndex[] onPcpu = fairnessByGroup(sim, vms, end, pcpu -> pcpu, sim.pcpuCount());
        for (int p = 0; p < sim.pcpuCount(); p++) {
            Pcpu pc = sim.pcpu(p);
            Long forced = cs == null ? null : cs.forcedIdleNanos(p);
            forcedIdle += forced == null ? 0 : forced;
            pcpus.add(new PcpuResult(p, pc.socket, pc.core, pc.thread, sim.resultRunqueueOf(p), sim.busyNanos(p), sim.idleNanos(p),
                    sim.overheadNanos(p), forced, onPcpu[p].index()));
        }
        CoreSchedulingResult coreScheduling = cs == null ? null
                : new CoreSchedulingResult(cs.granularity(), cs.cpusPerResource(), forcedIdle, cs.rendezvousCount(),
                        cs.rendezvousNanos());
        List<RunqueueResult> rqs = new ArrayList<>();
        FairnessIndex[] onQueues = fairnessByGroup(sim, vms, end, pcpu -> sim.resultRunqueueOf(pcpu), sim.runqueueCount());
        for (int rq = 0; rq < sim.runqueueCount(); rq++) {
            List<Integer> served = new ArrayList<>();
            for (int p = 0; p < sim.pcpuCount(); p++) {
                if (sim.resultRunqueueOf(p) == rq) {
                    served.add(p);
                }
            }
            FairnessIndex onQueue = onQueues[rq];
            rqs.add(new RunqueueResult(rq, List.copyOf(served), end == 0 ? 0 : (double) sim.runqueueArea(rq) / end,
                    onQueue.names(), onQueue.index()));
        }
        Migrations migrations = sim.migrations();
        double streamWork = sim.localStreamWork() + sim.remoteStreamWork();
        RunTotals totals = new RunTotals(end, sim.events(), sim.contextSwitches(), migrations,
                streamWork == 0 ? null : sim.localStreamWork() / streamWork, sim.traceRecords());
        Distributions dists = sim.distributions();
        Double jain = fairness.index();
        ResultSummary summary = new ResultSummary(end, wallNanos, sim.events(), sim.contextSwitches(),
                migrations.total(), jain, headline);
        boolean partial = ResultDocument.STOP_STOPPED.equals(stopReason)
                || ResultDocument.STOP_EVENT_LIMIT.equals(stopReason);
        return new ResultDocument(EngineVersion.VERSION, sim.spec().name(), sim.policyName(),
                new LinkedHashMap<>(sim.spec().scheduler().params()), sim.spec().seed(), stopReason, partial, summary, totals,
                new Fairness(jain, fairness.names(), FairnessIndex.MIN_DEMAND_SHARE), dists, vms, pcpus, rqs,
                sim.policyStatistics(),
                sim.hypervisorStatistics() == null ? null : sim.hypervisorStatistics().run(), coreScheduling);
    }

    /**
     * Per group of pCPUs ({@code groupOf} maps a pCPU to 0..groups-1), the index over the competing VMs
     * of the CPU time they got on that group's pCPUs. One pass over every vCPU's time per pCPU, so its
     * cost grows with the pCPUs the vCPUs visited, not with groups x vCPUs; each group adds its VMs in
     * VM order, as one pass per group would.
     */
    private static FairnessIndex[] fairnessByGroup(RunView sim, List<VmResult> vms, long end, IntUnaryOperator groupOf,
            int groups) {
        FairnessIndex[] out = new FairnessIndex[groups];
        for (int g = 0; g < groups; g++) {
            out[g] = new FairnessIndex();
        }
        long[] cpu = new long[groups];
        int[] touched = new int[groups];
        for (int i = 0; i < vms.size(); i++) {
            if (!vms.get(i).competing()) {
                continue;
            }
            VmRun run = sim.vms().get(i);
            int n = 0;
            for (VcpuRun vr : run.vcpus) {
                for (long[] pt : vr.timeOnPcpu.sorted()) {
                    int g = groupOf.applyAsInt((int) pt[0]);
                    if (cpu[g] == 0) {
                        touched[n++] = g;
                    }
                    cpu[g] += pt[1]; // > 0: PcpuTimes keeps no empty entry
                }
            }
            long lifetime = lifetime(run, end);
            for (int k = 0; k < n; k++) {
                int g = touched[k];
                out[g].add(run.vm.name, cpu[g], lifetime, run.vm.weight);
                cpu[g] = 0;
            }
        }
        return out;
    }

    /** From start to shutdown, completion or the end of the run (0 if it never started). */
    private static long lifetime(VmRun run, long end) {
        if (run.startedAt < 0) {
            return 0;
        }
        Long stop = stopOf(run);
        return (stop == null ? end : stop) - run.startedAt;
    }

    /** Shutdown time, else completion time, else null (ran to the end). */
    private static Long stopOf(VmRun run) {
        if (run.endedAt >= 0) {
            return run.endedAt;
        }
        return run.completedAt >= 0 ? run.completedAt : null;
    }

    private static VmResult vmResult(RunView sim, VmRun run, long end) {
        HypervisorStatistics hyper = sim.hypervisorStatistics();
        long vmEnd = run.endedAt >= 0 ? run.endedAt : end;
        WorkloadReport report = run.workload.report(vmEnd - run.startedAt);
        long cpu = 0;
        long wait = 0;
        long blocked = 0;
        long spin = 0;
        long same = 0;
        long socket = 0;
        long cross = 0;
        List<VcpuResult> vcpus = new ArrayList<>();
        for (VcpuRun vr : run.vcpus) {
            cpu += vr.cpuNs;
            wait += vr.runnableNs;
            blocked += vr.blockedNs;
            spin += vr.spinNs;
            same += vr.migSameCore;
            socket += vr.migSameSocket;
            cross += vr.migCross;
            List<VcpuResult.PcpuTime> ranOn = new ArrayList<>();
            for (long[] pt : vr.timeOnPcpu.sorted()) {
                ranOn.add(new VcpuResult.PcpuTime((int) pt[0], pt[1]));
            }
            vcpus.add(new VcpuResult(vr.v.index, vr.cpuNs, vr.runnableNs, vr.blockedNs, vr.spinNs,
                    vr.wakeLatency.toDistribution(true),
                    new Migrations(vr.migSameCore + vr.migSameSocket + vr.migCross, vr.migSameCore, vr.migSameSocket,
                            vr.migCross),
                    ranOn, sim.policyStatistics(vr.v), hyper == null ? null : hyper.vcpu(vr.v.uid)));
        }
        double demand = FairnessIndex.demandShare(cpu, wait, run.vcpus.size(), lifetime(run, end));
        return new VmResult(run.vm.name, run.spec.workload().type(), run.vm.weight, headline(report),
                report.details(), run.startedAt, stopOf(run),
                run.completedAt >= 0 ? run.completedAt : null, cpu, wait, blocked, spin, demand,
                demand >= FairnessIndex.MIN_DEMAND_SHARE, run.wakeLatency.toDistribution(true),
                new Migrations(same + socket + cross, same, socket, cross), vcpus, initialPlacement(sim, run.spec));
    }

    /** The VM's creation placement and the rule behind it (InitialPlacement.describe). */
    private static InitialPlacementResult initialPlacement(RunView sim, VmSpec vm) {
        InitialPlacement.Description d = InitialPlacement.describe(sim.spec(), vm, sim.descriptor());
        return new InitialPlacementResult(d.rule(), vm.placement(), d.release(), d.creation(), d.insertPick(),
                d.source());
    }

    private static Headline headline(WorkloadReport report) {
        String direction = report.higherIsBetter() ? "higher is better" : "lower is better";
        return new Headline(report.value(), report.unit(), report.metric() + " in " + report.unit() + ", " + direction,
                report.higherIsBetter());
    }
}

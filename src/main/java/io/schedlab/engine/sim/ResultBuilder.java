package io.schedlab.engine.sim;

import io.schedlab.engine.Engine;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.policies.CoreScheduled;
import io.schedlab.engine.result.CoreSchedulingResult;
import io.schedlab.engine.result.Distributions;
import io.schedlab.engine.result.Migrations;
import io.schedlab.engine.result.PcpuResult;
import io.schedlab.engine.result.ResultDocument;
import io.schedlab.engine.result.ResultSummary;
import io.schedlab.engine.result.RunTotals;
import io.schedlab.engine.result.RunqueueResult;
import io.schedlab.engine.result.VcpuResult;
import io.schedlab.engine.result.VmResult;
import io.schedlab.engine.workloads.WorkloadReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns a finished {@link Simulator} into the {@link ResultDocument}. */
public final class ResultBuilder {
    private ResultBuilder() {
    }

    public static ResultDocument build(Simulator sim, double wallSeconds) {
        long end = sim.now;
        List<VmResult> vms = new ArrayList<>();
        Map<String, Double> headline = new LinkedHashMap<>();
        double sumX = 0;
        double sumX2 = 0;
        int n = 0;
        for (VmRun run : sim.vmRuns) {
            VmResult r = vmResult(run, end);
            vms.add(r);
            headline.put(r.name(), r.workload().value());
            double x = r.cpuSeconds() / Math.max(1, run.vm.weight);
            sumX += x;
            sumX2 += x * x;
            n++;
        }
        double jain = sumX2 == 0 ? 1.0 : sumX * sumX / (n * sumX2);
        List<PcpuResult> pcpus = new ArrayList<>();
        CoreScheduled cs = sim.coreSched;
        long forcedIdle = 0;
        for (int p = 0; p < sim.nP; p++) {
            Pcpu pc = sim.pcpus[p];
            Long forced = cs == null ? null : cs.forcedIdleNanos(p);
            forcedIdle += forced == null ? 0 : forced;
            pcpus.add(new PcpuResult(p, pc.socket, pc.core, pc.thread, sec(sim.busyNs[p]), sec(sim.idleNs[p]),
                    sec(sim.overheadNs[p]), forced));
        }
        CoreSchedulingResult coreScheduling = cs == null ? null
                : new CoreSchedulingResult(cs.granularity(), cs.cpusPerResource(), forcedIdle, cs.rendezvousCount(),
                        cs.rendezvousNanos());
        List<RunqueueResult> rqs = new ArrayList<>();
        for (int rq = 0; rq < sim.rqs.count; rq++) {
            rqs.add(new RunqueueResult(rq, end == 0 ? 0 : (double) sim.rqs.area[rq] / end));
        }
        Migrations migrations = new Migrations(sim.migSameCore + sim.migSameSocket + sim.migCross, sim.migSameCore,
                sim.migSameSocket, sim.migCross);
        double streamWork = sim.progress.localStreamWork + sim.progress.remoteStreamWork;
        RunTotals totals = new RunTotals(end, sim.events, sim.contextSwitches, migrations, jain,
                streamWork == 0 ? 1.0 : sim.progress.localStreamWork / streamWork, sim.trace.emitted());
        Distributions dists = new Distributions(sim.decisionHist.toDistribution(true),
                sim.switchHist.toDistribution(true), sim.savedHist.toDistribution(true),
                sim.wakeHist.toDistribution(true), sim.rqWaitHist.toDistribution(true));
        ResultSummary summary = new ResultSummary(sec(end), wallSeconds, sim.events, sim.contextSwitches,
                migrations.total(), jain, headline);
        return new ResultDocument(Engine.VERSION, sim.spec.name(), sim.policyName,
                new LinkedHashMap<>(sim.spec.scheduler().params()), sim.seed,
                sim.stoppedEarly() ? "all-complete" : "duration", summary, totals, dists, vms, pcpus, rqs,
                coreScheduling);
    }

    private static VmResult vmResult(VmRun run, long end) {
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
                ranOn.add(new VcpuResult.PcpuTime((int) pt[0], sec(pt[1])));
            }
            vcpus.add(new VcpuResult(vr.v.index, sec(vr.cpuNs), sec(vr.runnableNs), sec(vr.blockedNs),
                    sec(vr.spinNs), vr.wakeLatency.toDistribution(false),
                    new Migrations(vr.migSameCore + vr.migSameSocket + vr.migCross, vr.migSameCore, vr.migSameSocket,
                            vr.migCross),
                    ranOn));
        }
        return new VmResult(run.vm.name, run.spec.workload().type(), report, sec(run.startedAt),
                run.endedAt >= 0 ? sec(run.endedAt) : null, run.completedAt >= 0 ? sec(run.completedAt) : null,
                sec(cpu), sec(wait), sec(blocked), sec(spin), run.wakeLatency.toDistribution(false),
                new Migrations(same + socket + cross, same, socket, cross), vcpus);
    }

    static double sec(long nanos) {
        return nanos / 1e9;
    }
}

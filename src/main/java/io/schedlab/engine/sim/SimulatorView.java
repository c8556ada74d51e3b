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

/** The {@link RunView} of a {@link Simulator}: reads its parts, writes nothing. */
final class SimulatorView implements RunView {
    private final Simulator sim;

    SimulatorView(Simulator sim) {
        this.sim = sim;
    }

    @Override
    public long now() {
        return sim.now();
    }

    @Override
    public long events() {
        return sim.events();
    }

    @Override
    public boolean stoppedEarly() {
        return sim.stoppedEarly();
    }

    @Override
    public ExperimentSpec spec() {
        return sim.spec();
    }

    @Override
    public String policyName() {
        return sim.policyName();
    }

    @Override
    public PolicyDescriptor descriptor() {
        return sim.descriptor();
    }

    @Override
    public List<VmRun> vms() {
        return sim.tables().vms();
    }

    @Override
    public List<VcpuRun> vcpus() {
        return sim.tables().vcpus();
    }

    @Override
    public int pcpuCount() {
        return sim.nP();
    }

    @Override
    public Pcpu pcpu(int p) {
        return sim.pcpus()[p];
    }

    @Override
    public VcpuRun runningOn(int p) {
        return sim.path().runningOn(p);
    }

    @Override
    public boolean rescheduleAfterSwitchTail(int p) {
        return sim.path().rescheduleAfterSwitchTail(p);
    }

    @Override
    public long busyNanos(int p) {
        return sim.path().books.accounts.busy(p);
    }

    @Override
    public long idleNanos(int p) {
        return sim.path().books.accounts.idle(p);
    }

    @Override
    public long overheadNanos(int p) {
        return sim.path().books.accounts.overhead(p);
    }

    @Override
    public long idleSince(int p) {
        return sim.path().books.accounts.idleSince(p);
    }

    @Override
    public long overheadUntil(int p) {
        return sim.path().books.accounts.overheadUntil(p);
    }

    @Override
    public int resultRunqueueOf(int p) {
        return sim.path().rqOf[p];
    }

    @Override
    public int runqueueOf(int p) {
        return sim.path().runqueueOf(p);
    }

    @Override
    public int runqueueCount() {
        return sim.path().rqs.count;
    }

    @Override
    public long runqueueArea(int rq) {
        return sim.path().rqs.area[rq];
    }

    @Override
    public CoreScheduled coreScheduling() {
        return sim.path().coreSched;
    }

    @Override
    public double localStreamWork() {
        return sim.progress().localStreamWork;
    }

    @Override
    public double remoteStreamWork() {
        return sim.progress().remoteStreamWork;
    }

    @Override
    public long contextSwitches() {
        return sim.path().books.switches.contextSwitches();
    }

    @Override
    public Migrations migrations() {
        SwitchCounters sw = sim.path().books.switches;
        return new Migrations(sw.migrations(), sw.sameCore(), sw.sameSocket(), sw.crossSocket());
    }

    @Override
    public long traceRecords() {
        return sim.trace().emitted();
    }

    @Override
    public Distributions distributions() {
        return sim.latencies().toDistributions();
    }

    @Override
    public Map<String, Long> policyStatistics() {
        return sim.path().policyStatistics();
    }

    @Override
    public Map<String, Long> policyStatistics(Vcpu v) {
        return sim.path().policyStatistics(v);
    }

    @Override
    public HypervisorStatistics hypervisorStatistics() {
        return sim.hyper().statistics();
    }

    @Override
    public SelfCheckAssumptions assumptions() {
        return sim.path().assumptions();
    }
}

package io.schedlab.engine.sim;

import io.schedlab.engine.model.Vm;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The run's vCPU table (by uid), VM table (by id, in start order) and the live VMs: their one owner, so
 * every other class reads them through the read-only lists here and adds or ends a VM only through
 * {@link #add(VmRun)} and {@link #ended(Vm)}.
 */
final class RunTables {
    private final List<VcpuRun> vcpus = new ArrayList<>();
    private final List<VcpuRun> vcpusView = Collections.unmodifiableList(vcpus);
    private final List<VmRun> vms = new ArrayList<>();
    private final List<VmRun> vmsView = Collections.unmodifiableList(vms);
    private final List<Vm> liveVms = new ArrayList<>();
    private final List<Vm> liveVmsView = Collections.unmodifiableList(liveVms);

    /** The vCPU of that uid. */
    VcpuRun vcpu(int uid) {
        return vcpus.get(uid);
    }

    /** The VM of that id. */
    VmRun vm(int id) {
        return vms.get(id);
    }

    /** Every vCPU ever started, by uid (read-only). */
    List<VcpuRun> vcpus() {
        return vcpusView;
    }

    /** Every VM ever started, by id (read-only). */
    List<VmRun> vms() {
        return vmsView;
    }

    /** The VMs not shut down, in start order (read-only; what a policy sees). */
    List<Vm> liveVms() {
        return liveVmsView;
    }

    /** The uid the next vCPU gets. */
    int nextVcpuUid() {
        return vcpus.size();
    }

    /** A VM starts: it and its vCPUs (already in {@code run.vcpus}, uids from {@link #nextVcpuUid()}) enter the tables. */
    void add(VmRun run) {
        vms.add(run);
        liveVms.add(run.vm);
        for (VcpuRun vr : run.vcpus) {
            if (vr.v.uid != vcpus.size()) {
                throw new IllegalStateException(vr.v + " has uid " + vr.v.uid + ", expected " + vcpus.size());
            }
            vcpus.add(vr);
        }
    }

    /** A VM was shut down: it is no longer live. */
    void ended(Vm vm) {
        liveVms.remove(vm);
    }
}

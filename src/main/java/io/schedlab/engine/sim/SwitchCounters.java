package io.schedlab.engine.sim;

import io.schedlab.engine.model.Topology;

/** Context switches and vCPU migrations of a run, migrations by distance (same core, same socket, across sockets). */
final class SwitchCounters {
    private final Topology topo;
    private long contextSwitches;
    private long sameCore;
    private long sameSocket;
    private long crossSocket;

    SwitchCounters(Topology topo) {
        this.topo = topo;
    }

    void switched() {
        contextSwitches++;
    }

    /** vr starts on pCPU {@code to} after last running on {@code from} (another pCPU): counted for it and the run. */
    void migrated(VcpuRun vr, int from, int to) {
        if (topo.sameCore(from, to)) {
            vr.migSameCore++;
            sameCore++;
        } else if (topo.sameSocket(from, to)) {
            vr.migSameSocket++;
            sameSocket++;
        } else {
            vr.migCross++;
            crossSocket++;
        }
    }

    long contextSwitches() {
        return contextSwitches;
    }

    long sameCore() {
        return sameCore;
    }

    long sameSocket() {
        return sameSocket;
    }

    long crossSocket() {
        return crossSocket;
    }

    long migrations() {
        return sameCore + sameSocket + crossSocket;
    }
}

package io.schedlab.engine.sim;

/** Time-averaged run queue lengths: runnable, not running vCPUs counted on the queue of the pCPU they were assigned to. */
final class RunQueueStats {
    private final Simulator sim;
    final int count;
    private final int[] len;
    final long[] area;
    private final long[] since;

    RunQueueStats(Simulator sim, int count) {
        this.sim = sim;
        this.count = count;
        this.len = new int[count];
        this.area = new long[count];
        this.since = new long[count];
    }

    void enter(VcpuRun vr, int rq) {
        leave(vr);
        touch(rq);
        len[rq]++;
        vr.countedRq = rq;
    }

    void leave(VcpuRun vr) {
        int rq = vr.countedRq;
        if (rq >= 0) {
            touch(rq);
            len[rq]--;
            vr.countedRq = -1;
        }
    }

    /** Closes every queue's current interval (end of run). */
    void finish() {
        for (int rq = 0; rq < count; rq++) {
            touch(rq);
        }
    }

    private void touch(int rq) {
        area[rq] += len[rq] * (sim.now() - since[rq]);
        since[rq] = sim.now();
    }
}

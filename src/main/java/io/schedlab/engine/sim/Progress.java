package io.schedlab.engine.sim;

import io.schedlab.engine.model.VcpuState;
import java.util.ArrayList;
import java.util.List;

/**
 * Thread progress on running vCPUs: settling work done at the current rate, and the rate itself
 * (SMT sibling contention x the NUMA node's bandwidth share and distance). When a rate changes the
 * affected vCPUs are settled at the old rate first and re-planned at the new one.
 */
final class Progress {
    private final Simulator sim;
    /** Running memory streams per NUMA node, and the vCPUs running them. */
    final int[] streams;
    final List<List<VcpuRun>> streamers = new ArrayList<>();
    double localStreamWork;
    double remoteStreamWork;

    Progress(Simulator sim) {
        this.sim = sim;
        this.streams = new int[sim.topo.numaNodes()];
        for (int n = 0; n < streams.length; n++) {
            streamers.add(new ArrayList<>());
        }
    }


    /** Bring the running vCPU's thread progress and counters up to sim.now (at its current rate). */
    void settle(VcpuRun vr) {
        if (sim.now <= vr.lastSettle || vr.v.state != VcpuState.RUNNING) {
            return; // settled at this instant already (tested first: no look at the vCPU) or not running
        }
        long from = Math.max(vr.lastSettle, vr.runStart);
        if (sim.now > from) {
            GuestThreadRun th = vr.thread;
            if (th != null) {
                long dt = sim.now - from;
                th.sliceUsed += dt;
                if (th.mode == GuestThreadRun.COMPUTE) {
                    long pf = Math.max(from, vr.progressFrom);
                    if (sim.now > pf) {
                        double done = (sim.now - pf) * vr.rate;
                        th.remaining -= done;
                        if (th.memoryStream) {
                            if (sim.numaNodeOf[vr.v.processor] == vr.memoryNode) {
                                localStreamWork += done;
                            } else {
                                remoteStreamWork += done;
                            }
                        }
                    }
                } else if (th.mode == GuestThreadRun.SPIN) {
                    vr.spinNs += dt;
                }
            }
        }
        vr.lastSettle = sim.now;
    }

    void settleSiblings(int p) {
        for (int s : sim.siblings[p]) {
            VcpuRun r = sim.runningOn[s];
            if (r != null) {
                settle(r);
            }
        }
    }

    void replanSiblings(int p) {
        for (int s : sim.siblings[p]) {
            VcpuRun r = sim.runningOn[s];
            if (r != null) {
                sim.guest.replan(r);
            }
        }
    }

    /** Progress rate of vCPU vr's thread on pCPU p: SMT sibling contention x NUMA bandwidth share and distance. */
    double rate(VcpuRun vr, GuestThreadRun th) {
        int p = vr.v.processor;
        double r = 1.0;
        for (int s : sim.siblings[p]) {
            if (sim.runningOn[s] != null) {
                r *= sim.costs.smtFactor(); // VMware: slightly more than half of solo throughput
                break;
            }
        }
        if (th.memoryStream) {
            int node = vr.memoryNode;
            double demand = Math.max(1, streams[node]) * sim.costs.streamBandwidthMBps();
            r *= Math.min(1.0, sim.topo.nodeBandwidthMBps()[node] / demand);
            int here = sim.numaNodeOf[p];
            if (here != node) {
                r *= 10.0 / sim.topo.numaDistance()[here][node]; // ACPI SLIT: 10 = local, 21 = 2.1x slower
            }
        }
        return r;
    }
}

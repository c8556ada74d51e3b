package io.schedlab.engine.sim;

import io.schedlab.engine.costs.CostModel;
import io.schedlab.engine.model.VcpuState;
import java.util.Arrays;

/**
 * Thread progress on running vCPUs: settling work done at the current rate, and the rate itself
 * (SMT sibling contention x the NUMA node's bandwidth share and distance). When a rate changes the
 * affected vCPUs are settled at the old rate first and re-planned at the new one. Until its cache
 * refill ends ({@code VcpuRun.progressFrom}, see {@link CacheModel}) a thread runs at
 * {@code costs.refillProgressFraction} of that rate.
 * <p>
 * A VM whose memory is striped over every node (interleaved memory) streams from all of them: each
 * of its streams puts 1/N of its demand on each of the N nodes, and the part on other nodes also crosses the
 * links between nodes ({@code costs.interconnectMBps} per node). Its rate is the harmonic mean of the N per-node
 * rates (the time per byte averaged over the nodes the bytes come from). A stream of node-local memory running on
 * a pCPU of another node crosses the links too; every stream on the links waits behind the others' accesses
 * ({@link InterconnectLoad}).
 */
final class Progress {
    /** The clock and the schedule path (built after this); the other parts of the run are taken when built. */
    private final Simulator sim;
    private final CostModel costs;
    private final GuestKernel guest;
    /** NUMA node of each pCPU. */
    private final int[] numaNodeOf;
    /** The SMT siblings of each pCPU. */
    private final int[][] siblings;
    /** The vCPUs running memory streams, per NUMA node, in the order they started (re-plans follow it). */
    private final VcpuRun[][] streamers;
    private final int[] streamerCount;
    /**
     * Per node: min(1, node bandwidth / demand of its streams), the factor {@link #rate} applies;
     * recomputed (same expression) only when the node's stream count changes.
     */
    private final double[] bandwidthShare;
    /** 10 / SLIT distance [here][memory node]: the remote-access factor, divided once instead of per rate. */
    private final double[][] remoteFactor;
    private final double smtFactor;
    /** Share of the rate kept during a cache refill (0: no progress before the refill is done). */
    private final double refillFraction;
    private final double streamBandwidthMBps;
    private final double[] nodeBandwidthMBps;
    /** The links between nodes: the rate factor of the streams crossing them. */
    private final InterconnectLoad links;
    /** Streams of node-local memory running on a pCPU of another node (they cross the links). */
    private int remoteStreams;
    double localStreamWork;
    double remoteStreamWork;

    Progress(Simulator sim) {
        this.sim = sim;
        this.costs = sim.costs();
        this.guest = sim.guest();
        this.numaNodeOf = sim.numaNodeOf();
        this.siblings = sim.siblings();
        int nodes = sim.topo().numaNodes();
        // one list per node, and the striped streams (spread over every node) last
        this.streamers = new VcpuRun[nodes + 1][8];
        this.streamerCount = new int[nodes + 1];
        this.smtFactor = costs.smtFactor();
        this.refillFraction = costs.refillProgressFraction();
        this.streamBandwidthMBps = costs.streamBandwidthMBps();
        this.nodeBandwidthMBps = sim.topo().nodeBandwidthMBps().clone();
        this.bandwidthShare = new double[nodes];
        this.links = new InterconnectLoad(nodes, costs.interconnectMBps(), streamBandwidthMBps);
        this.remoteFactor = new double[nodes][nodes];
        int[][] distance = sim.topo().numaDistance();
        for (int n = 0; n < nodes; n++) {
            updateBandwidthShare(n);
            for (int m = 0; m < nodes; m++) {
                remoteFactor[n][m] = 10.0 / distance[n][m]; // ACPI SLIT: 10 = local, 21 = 2.1x slower
            }
        }
    }

    private void updateBandwidthShare(int node) {
        int nodes = bandwidthShare.length;
        int striped = streamerCount[nodes];
        if (striped == 0) {
            double demand = Math.max(1, streamerCount[node]) * streamBandwidthMBps;
            bandwidthShare[node] = Math.min(1.0, nodeBandwidthMBps[node] / demand);
        } else {
            // each striped stream asks 1/N of its demand from every node
            double demand = Math.max(1.0 / nodes, streamerCount[node] + (double) striped / nodes) * streamBandwidthMBps;
            bandwidthShare[node] = Math.min(1.0, nodeBandwidthMBps[node] / demand);
        }
    }

    /** The streamer list of striped streams (after the N nodes' lists). */
    int stripedSlot() {
        return bandwidthShare.length;
    }

    /** Whether any striped stream runs: then every stream's rate depends on every node's load. */
    boolean anyStriped() {
        return streamerCount[bandwidthShare.length] > 0;
    }

    /**
     * Whether the links are modelled and a stream of node-local memory crosses them: then its rate and every other
     * stream's on the links depend on one another.
     */
    boolean remoteStreamsOnLinks() {
        return remoteStreams > 0 && links.modelled();
    }

    /** All node shares and the link load, after the striped streams changed. */
    private void updateAllShares() {
        int nodes = bandwidthShare.length;
        for (int n = 0; n < nodes; n++) {
            updateBandwidthShare(n);
        }
        links.update(streamerCount[nodes], remoteStreams);
    }

    /** Number of vCPUs streaming from {@code node}; {@link #streamer} gives them in start order. */
    int streamerCount(int node) {
        return streamerCount[node];
    }

    VcpuRun streamer(int node, int i) {
        return streamers[node][i];
    }

    /** vr starts streaming from node (appended last). */
    void addStreamer(int node, VcpuRun vr) {
        int n = streamerCount[node];
        if (n == streamers[node].length) {
            streamers[node] = Arrays.copyOf(streamers[node], 2 * n);
        }
        streamers[node][n] = vr;
        streamerCount[node] = n + 1;
        vr.streamRemote = node != stripedSlot() && numaNodeOf[vr.v.processor] != node;
        if (vr.streamRemote) {
            remoteStreams++;
            links.update(streamerCount[stripedSlot()], remoteStreams);
        }
        updateShares(node);
    }

    /** vr stops streaming from node; the others keep their order. */
    void removeStreamer(int node, VcpuRun vr) {
        VcpuRun[] list = streamers[node];
        int n = streamerCount[node];
        for (int i = 0; i < n; i++) {
            if (list[i] == vr) {
                System.arraycopy(list, i + 1, list, i, n - i - 1);
                list[n - 1] = null;
                streamerCount[node] = n - 1;
                if (vr.streamRemote) {
                    vr.streamRemote = false;
                    remoteStreams--;
                    links.update(streamerCount[stripedSlot()], remoteStreams);
                }
                updateShares(node);
                return;
            }
        }
        throw new IllegalStateException(vr.v + " does not stream from node " + node);
    }

    private void updateShares(int slot) {
        if (slot == stripedSlot()) {
            updateAllShares();
        } else {
            updateBandwidthShare(slot);
        }
    }

    /** Bring the running vCPU's thread progress and counters up to sim.now (at its current rate). */
    void settle(VcpuRun vr) {
        if (sim.now() <= vr.lastSettle || vr.v.state != VcpuState.RUNNING) {
            return; // settled at this instant already (tested first: no look at the vCPU) or not running
        }
        long from = Math.max(vr.lastSettle, vr.runStart);
        if (sim.now() > from) {
            GuestThreadRun th = vr.thread;
            if (th != null) {
                long dt = sim.now() - from;
                th.sliceUsed += dt;
                if (th.mode == GuestThreadRun.COMPUTE) {
                    double done = workBetween(vr, from, sim.now());
                    if (done > 0) {
                        th.remaining -= done;
                        if (th.memoryStream) {
                            if (vr.vm.vm.memoryStriped) {
                                int nodes = bandwidthShare.length;
                                localStreamWork += done / nodes;
                                remoteStreamWork += done * (nodes - 1) / nodes;
                            } else if (numaNodeOf[vr.v.processor] == vr.memoryNode) {
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
        vr.lastSettle = sim.now();
    }

    /**
     * Work vr's thread does in [from, to) at its current rate (from at or after the run's start): the part
     * before the refill's end at the refill fraction of it, the rest at full rate.
     */
    private double workBetween(VcpuRun vr, long from, long to) {
        long pf = Math.max(from, vr.progressFrom);
        double done = to > pf ? (to - pf) * vr.rate : 0;
        if (refillFraction > 0 && pf > from) {
            done += (Math.min(to, pf) - from) * (refillFraction * vr.rate);
        }
        return done;
    }

    /**
     * When vr's thread finishes {@code remaining} work at {@code rate}, working from {@code t0} (at or after
     * the run's start): at the refill fraction of the rate until the refill ends, at the full rate after.
     * {@link Simulator#NEVER} when it would not finish in the long range.
     */
    long finishAt(VcpuRun vr, long t0, double remaining, double rate) {
        double left = remaining;
        if (refillFraction > 0 && t0 < vr.progressFrom) {
            double slowRate = refillFraction * rate;
            double inRefill = (vr.progressFrom - t0) * slowRate;
            if (left <= inRefill) {
                return t0 + (long) Math.ceil(left / slowRate);
            }
            left -= inRefill;
        }
        long from = Math.max(t0, vr.progressFrom);
        double span = Math.ceil(left / rate);
        return span >= 4e18 ? Simulator.NEVER : from + (long) span;
    }

    /** Whether {@link #settle} would leave vr unchanged now (settled at this instant, or not running). */
    boolean isSettled(VcpuRun vr) {
        return sim.now() <= vr.lastSettle || vr.v.state != VcpuState.RUNNING;
    }

    void settleSiblings(int p) {
        for (int s : siblings[p]) {
            VcpuRun r = sim.path().runningOn(s);
            if (r != null) {
                settle(r);
            }
        }
    }

    void replanSiblings(int p) {
        for (int s : siblings[p]) {
            VcpuRun r = sim.path().runningOn(s);
            if (r != null) {
                guest.replan(r);
            }
        }
    }

    /** Progress rate of vCPU vr's thread on pCPU p: SMT sibling contention x NUMA bandwidth share and distance. */
    double rate(VcpuRun vr, GuestThreadRun th) {
        int p = vr.v.processor;
        double r = 1.0;
        for (int s : siblings[p]) {
            if (sim.path().runningOn(s) != null) {
                r *= smtFactor; // VMware: slightly more than half of solo throughput
                break;
            }
        }
        if (th.memoryStream && vr.vm.vm.memoryStriped) {
            r *= stripedFactor(numaNodeOf[p]);
        } else if (th.memoryStream) {
            // Same factors, same order of products as min(1, bw / (max(1, streams) x demand)) x 10 / distance.
            int node = vr.memoryNode;
            r *= bandwidthShare[node];
            int here = numaNodeOf[p];
            if (here != node) {
                r *= remoteFactor[here][node] * links.remoteFactor();
            }
        }
        return r;
    }

    /**
     * Rate factor of a striped stream on a pCPU of node {@code here}: 1/N of its bytes from each node, each at
     * that node's share (times distance and the links' factor when remote); the factor is 1 / the mean time per
     * byte.
     */
    private double stripedFactor(int here) {
        int nodes = bandwidthShare.length;
        double linkShare = links.stripedFactor();
        double timePerByte = 0;
        for (int m = 0; m < nodes; m++) {
            double r = bandwidthShare[m];
            if (m != here) {
                r *= remoteFactor[here][m] * linkShare;
            }
            timePerByte += 1.0 / r;
        }
        return nodes / timePerByte;
    }
}

package io.schedlab.engine.sim;

/**
 * Load on the links between NUMA nodes and the rate it leaves to the remote part of a memory stream.
 * <p>
 * A remote access waits behind the other streams' accesses on the links. The links are one M/M/1 server of
 * {@code nodes x costs.interconnectMBps}: mean response time R = R0 / (1 - rho) (Kleinrock, Queueing Systems
 * vol. 1, 1975, s. 3.2, M/M/1 T = (1 / mu) / (1 - rho)). A stream keeps a bounded number of misses outstanding,
 * so what it carries falls as its latency grows (Little's law, L = lambda W: Little, Operations Research 9(3),
 * 1961): the carried utilisation is rho = a (1 - rho) for the offered load a = unloaded demand / capacity, so
 * rho = a / (1 + a) and R = R0 (1 + a). The offered load is the other streams' only: an access arriving at a
 * queue of a closed system sees it as it is with its own stream removed (the arrival theorem: Lavenberg and
 * Reiser, J. Appl. Prob. 17, 1980; Sevcik and Mitrani, JACM 28(2), 1981), so a stream alone meets no queue. The
 * links never carry more than their bandwidth: the factor is at most capacity / total offered demand.
 * <p>
 * Streams that cross the links: the remote (N - 1) / N of every striped stream, and every stream of node-local
 * memory that runs on a pCPU of another node. With no link bandwidth given (0) the links add nothing.
 */
final class InterconnectLoad {
    /** Bandwidth of all the links together (nodes x per-node link bandwidth); 0 = no limit. */
    private final double capacityMBps;
    /** Unloaded demand of one striped stream's remote part: the stream's demand x (N - 1) / N. */
    private final double stripedRemoteMBps;
    /** Unloaded demand of one stream of node-local memory running on another node: all of it. */
    private final double remoteStreamMBps;
    private double stripedFactor = 1.0;
    private double remoteFactor = 1.0;

    InterconnectLoad(int nodes, double perNodeLinkMBps, double streamMBps) {
        this.capacityMBps = perNodeLinkMBps <= 0 ? 0 : nodes * perNodeLinkMBps;
        this.stripedRemoteMBps = streamMBps * (nodes - 1) / nodes;
        this.remoteStreamMBps = streamMBps;
    }

    /** Whether the links are modelled (a bandwidth is given): then every remote stream's rate depends on them. */
    boolean modelled() {
        return capacityMBps > 0;
    }

    /** The factors after the number of striped streams or of remote streams of node-local memory changed. */
    void update(int stripedStreams, int remoteStreams) {
        if (capacityMBps <= 0) {
            return;
        }
        double offered = stripedStreams * stripedRemoteMBps + remoteStreams * remoteStreamMBps;
        stripedFactor = rateFactor(offered, stripedRemoteMBps, capacityMBps);
        remoteFactor = rateFactor(offered, remoteStreamMBps, capacityMBps);
    }

    /** Rate factor of a striped stream's remote part (1 = unloaded links). */
    double stripedFactor() {
        return stripedFactor;
    }

    /** Rate factor of a stream of node-local memory running on another node (1 = unloaded links). */
    double remoteFactor() {
        return remoteFactor;
    }

    /**
     * Rate factor of a stream of unloaded demand {@code ownMBps} when {@code offeredMBps} (its own included) load
     * links of {@code capacityMBps}: 1 / (1 + others' demand / capacity), at most capacity / offered demand.
     */
    static double rateFactor(double offeredMBps, double ownMBps, double capacityMBps) {
        if (capacityMBps <= 0 || offeredMBps <= 0) {
            return 1.0;
        }
        double others = Math.max(0, offeredMBps - ownMBps);
        double queueing = 1.0 / (1.0 + others / capacityMBps);
        return Math.min(queueing, Math.min(1.0, capacityMBps / offeredMBps));
    }
}

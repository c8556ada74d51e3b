package io.schedlab.engine.policies.credit2;

import java.util.List;

/**
 * credit2.c {@code balance_load}: compare the local run queue with the one whose average load
 * differs most; act if the difference is at least 2^underloadBalanceTolerance (1.0) while the
 * busier one is under 100% of its pCPUs, or 2^overloadBalanceTolerance (0.125) otherwise; then
 * evaluate every push, pull and swap of vCPUs ({@code consider}) and apply the one leaving the
 * smallest difference.
 */
final class LoadBalancer {

    /** The chosen move: push from local, pull from other, or both (swap). Null when none. */
    record Move(Credit2Vcpu push, Credit2Vcpu pull, Credit2Runqueue other) {
    }

    private final Credit2Params params;

    LoadBalancer(Credit2Params params) {
        this.params = params;
    }

    /** Loads must be up to date (update_runq_load / update_svc_load at now) before calling. */
    Move decide(Credit2Runqueue lrqd, List<Credit2Runqueue> all) {
        Credit2Runqueue orqd = null;
        double loadDelta = 0;
        for (Credit2Runqueue o : all) {
            if (o == lrqd) {
                continue;
            }
            double delta = Math.abs(lrqd.avgload - o.avgload);
            if (delta > loadDelta) {
                loadDelta = delta;
                orqd = o;
            }
        }
        if (orqd == null) {
            return null;
        }
        double loadMax = Math.max(lrqd.avgload, orqd.avgload);
        int cpusMax = Math.max(lrqd.cpus(), orqd.cpus());
        double threshold = loadMax < cpusMax
                ? Math.scalb(1.0, params.underloadBalanceTolerance())
                : Math.scalb(1.0, params.overloadBalanceTolerance());
        if (loadDelta < threshold) {
            return null;
        }
        double[] best = {loadDelta};
        Credit2Vcpu[] pick = new Credit2Vcpu[2];
        int pulls = collectPulls(orqd, lrqd);
        for (Credit2Vcpu push : lrqd.svcs) {
            if (!migrateable(push, orqd)) {
                continue;
            }
            // the loads after the push, then after each pull as well (same operation order as one move at a time)
            double lLoad = lrqd.avgload - push.avgload;
            double oLoad = orqd.avgload + push.avgload;
            for (int i = 0; i < pulls; i++) {
                consider(lLoad + pullLoads[i], oLoad - pullLoads[i], push, pullable[i], best, pick);
            }
            consider(lLoad, oLoad, push, null, best, pick);
        }
        for (int i = 0; i < pulls; i++) {
            consider(lrqd.avgload + pullLoads[i], orqd.avgload - pullLoads[i], null, pullable[i], best, pick);
        }
        if (pick[0] == null && pick[1] == null) {
            return null;
        }
        return new Move(pick[0], pick[1], orqd);
    }

    /** The other queue's vCPUs that may move to the local one, in order, and their loads (read once per decision). */
    private Credit2Vcpu[] pullable = new Credit2Vcpu[16];
    private double[] pullLoads = new double[16];

    private int collectPulls(Credit2Runqueue from, Credit2Runqueue to) {
        if (pullable.length < from.svcs.size()) {
            pullable = new Credit2Vcpu[from.svcs.size()];
            pullLoads = new double[from.svcs.size()];
        }
        int n = 0;
        for (Credit2Vcpu pull : from.svcs) {
            if (migrateable(pull, to)) {
                pullable[n] = pull;
                pullLoads[n] = pull.avgload;
                n++;
            }
        }
        return n;
    }

    /** unit_is_migrateable: no pending move, and hard affinity reaches the target queue. */
    static boolean migrateable(Credit2Vcpu svc, Credit2Runqueue target) {
        return svc.migrateRqd == null && svc.vcpu.hardAffinity.intersects(target.active);
    }

    /** consider(): the load difference after the move (local and other loads given); keep it if smaller than the best so far. */
    private static void consider(double lLoad, double oLoad, Credit2Vcpu push, Credit2Vcpu pull, double[] best,
            Credit2Vcpu[] pick) {
        double delta = Math.abs(lLoad - oLoad);
        if (delta < best[0]) {
            best[0] = delta;
            pick[0] = push;
            pick[1] = pull;
        }
    }
}

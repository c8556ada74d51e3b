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
        // consider() for every push, pull and swap, in Xen's order: the first strictly smaller difference wins
        double best = loadDelta;
        Credit2Vcpu bestPush = null;
        Credit2Vcpu bestPull = null;
        int pulls = collectPulls(orqd, lrqd);
        double[] loads = pullLoads;
        for (Credit2Vcpu push : lrqd.svcs) {
            if (!migrateable(push, orqd)) {
                continue;
            }
            // the loads after the push, then after each pull as well (same operation order as one move at a time)
            double lLoad = lrqd.avgload - push.avgload;
            double oLoad = orqd.avgload + push.avgload;
            int swap = -1;
            for (int i = 0; i < pulls; i++) {
                double delta = Math.abs((lLoad + loads[i]) - (oLoad - loads[i]));
                if (delta < best) {
                    best = delta;
                    swap = i;
                }
            }
            if (swap >= 0) {
                bestPush = push;
                bestPull = pullable[swap];
            }
            double delta = Math.abs(lLoad - oLoad);
            if (delta < best) {
                best = delta;
                bestPush = push;
                bestPull = null;
            }
        }
        for (int i = 0; i < pulls; i++) {
            double delta = Math.abs((lrqd.avgload + loads[i]) - (orqd.avgload - loads[i]));
            if (delta < best) {
                best = delta;
                bestPush = null;
                bestPull = pullable[i];
            }
        }
        if (bestPush == null && bestPull == null) {
            return null;
        }
        return new Move(bestPush, bestPull, orqd);
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
        return svc.migrateRqd == null && svc.reaches(target);
    }

}

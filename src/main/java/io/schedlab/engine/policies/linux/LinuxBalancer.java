package io.schedlab.engine.policies.linux;

import io.schedlab.engine.model.Topology;
import java.util.List;

/**
 * Load balancing of the fair class (kernel/sched/fair.c rebalance_domains, load_balance,
 * find_busiest_group/queue, detach_tasks, can_migrate_task, newidle_balance), written plainly:
 * each CPU balances each of its domains every balance interval (sd_weight ms; times busy_factor when
 * busy); the busiest group (highest load per CPU) gives up queued tasks to this CPU when it exceeds
 * the local group by imbalance_pct, or to an idle CPU whenever it has one waiting; a task that ran in
 * the last migration_cost is cache-hot and stays unless the domain already failed more than
 * cache_nice_tries times. A CPU that goes idle balances at once (newidle), bottom-up.
 * Loads are PELT averages (weight x the decayed share of recent time runnable, {@link LinuxTask#loadAvg}), so
 * a short burst of a mostly sleeping thread does not make its CPU look busy and push a vCPU onto a busy one.
 * Simplifications: a CPU's load counts its runnable tasks only (no decaying blocked load); the all-pinned
 * retry is folded into choosing only queues with a task that may run here.
 */
final class LinuxBalancer {
    private final LinuxFairPolicy policy;
    private final SchedDomain[][] domains;
    /** When each CPU last balanced each domain (sd->last_balance). */
    private final long[][] lastBalance;
    private final int[][] failed;
    private final Runnable[] rebalance;
    /** The armed periodic-balance timer per CPU, and when it fires. */
    private final io.schedlab.engine.policies.SchedulerContext.TimerHandle[] timer;
    private final long[] timerAt;

    LinuxBalancer(LinuxFairPolicy policy, Topology topo) {
        this.policy = policy;
        int n = topo.size();
        domains = SchedDomain.forAll(topo, policy.params);
        lastBalance = new long[n][];
        failed = new int[n][];
        rebalance = new Runnable[n];
        timer = new io.schedlab.engine.policies.SchedulerContext.TimerHandle[n];
        timerAt = new long[n];
        for (int c = 0; c < n; c++) {
            lastBalance[c] = new long[domains[c].length];
            failed[c] = new int[domains[c].length];
            int cpu = c;
            rebalance[c] = () -> rebalance(cpu);
        }
    }

    /** Arms every CPU's periodic balance (run_rebalance_domains from the tick). */
    void start() {
        long now = policy.ctx.now();
        for (int c = 0; c < domains.length; c++) {
            java.util.Arrays.fill(lastBalance[c], now);
            timerAt[c] = Long.MAX_VALUE;
            arm(c);
        }
    }

    /** get_sd_balance_interval: sd_weight ms, times busy_factor when the CPU is busy. */
    private long interval(int cpu, int d) {
        boolean idle = policy.rqs[cpu].nr == 0;
        return domains[cpu][d].intervalNanos * (idle ? 1 : policy.params.busyFactor);
    }

    /**
     * A CPU went idle and newidle balancing found nothing: its domains are now due at the idle interval
     * (in Linux the nohz idle balancer, kicked from a busy CPU's tick, balances for idle CPUs).
     */
    void wentIdle(int cpu) {
        arm(cpu);
    }

    long widestIntervalNanos() {
        long w = 0;
        for (SchedDomain[] ds : domains) {
            for (SchedDomain d : ds) {
                w = Math.max(w, d.intervalNanos);
            }
        }
        return w;
    }

    /** (Re)arms CPU cpu's balance timer at its earliest due domain, unless it already fires by then. */
    private void arm(int cpu) {
        long at = Long.MAX_VALUE;
        for (int d = 0; d < domains[cpu].length; d++) {
            at = Math.min(at, lastBalance[cpu][d] + interval(cpu, d));
        }
        if (at == Long.MAX_VALUE || (timer[cpu] != null && timerAt[cpu] <= at)) {
            return;
        }
        if (timer[cpu] != null) {
            timer[cpu].cancel();
        }
        timerAt[cpu] = Math.max(at, policy.ctx.now());
        timer[cpu] = policy.ctx.setTimer(timerAt[cpu], rebalance[cpu]);
    }

    /** rebalance_domains: each due domain, bottom-up; a busy CPU's interval is busy_factor times longer. */
    private void rebalance(int cpu) {
        timer[cpu] = null;
        long now = policy.ctx.now();
        for (int d = 0; d < domains[cpu].length; d++) {
            if (now >= lastBalance[cpu][d] + interval(cpu, d)) {
                loadBalance(cpu, d, policy.rqs[cpu].nr == 0);
                lastBalance[cpu][d] = now;
            }
        }
        if (policy.rqs[cpu].curr == null && policy.rqs[cpu].nr > 0) {
            policy.ctx.tickle(cpu);
        }
        arm(cpu);
    }

    /** newidle_balance: pull from the lowest domain that has something to give. */
    void newIdle(int cpu) {
        for (int d = 0; d < domains[cpu].length; d++) {
            if (loadBalance(cpu, d, true) > 0) {
                return;
            }
        }
    }

    /** load_balance of one domain for {@code dst}; returns the number of tasks moved. */
    private int loadBalance(int dst, int d, boolean idle) {
        SchedDomain sd = domains[dst][d];
        LinuxRq[] rqs = policy.rqs;
        int local = sd.groupOf[dst];
        long localLoad = groupLoad(sd.groups.get(local));
        int localCpus = sd.groups.get(local).length;
        int busiest = -1;
        long busiestLoad = 0;
        int busiestCpus = 1;
        for (int g = 0; g < sd.groups.size(); g++) {
            if (g == local || !hasMovable(sd.groups.get(g), dst)) {
                continue;
            }
            long load = groupLoad(sd.groups.get(g));
            int cpus = sd.groups.get(g).length;
            if (busiest < 0 || load * busiestCpus > busiestLoad * cpus) {
                busiest = g;
                busiestLoad = load;
                busiestCpus = cpus;
            }
        }
        if (busiest < 0) {
            return 0;
        }
        // find_busiest_group: balanced unless busiest's load per CPU exceeds local's by imbalance_pct
        // (an idle CPU with spare capacity pulls whenever the busiest group has a waiting task).
        long busiestAvg = busiestLoad * localCpus;
        long localAvg = localLoad * busiestCpus;
        if (!idle && busiestAvg * 100 <= localAvg * sd.imbalancePct) {
            failed[dst][d] = 0;
            return 0;
        }
        LinuxRq src = busiestQueue(sd.groups.get(busiest), dst);
        LinuxRq to = rqs[dst];
        int moved = 0;
        long imbalance = idle ? Long.MAX_VALUE : (busiestAvg - localAvg) / (2L * localCpus * busiestCpus);
        long movedLoad = 0;
        List<LinuxTask> waiting = src.queuedTasks();
        for (int k = waiting.size() - 1; k >= 0; k--) { // detach_tasks walks from the tail
            LinuxTask t = waiting.get(k);
            // detach_tasks: a task heavier than what is left of the imbalance stays (its load is halved per failure).
            long taskLoad = t.loadAvg(policy.ctx.now());
            long load = taskLoad >> Math.min(failed[dst][d], 30);
            if (canMigrate(t, dst, sd, failed[dst][d]) && (idle || load <= imbalance - movedLoad)) {
                policy.migrateQueued(t, src, to);
                moved++;
                movedLoad += taskLoad;
                if (idle || movedLoad >= imbalance) {
                    break;
                }
            }
        }
        failed[dst][d] = moved == 0 ? failed[dst][d] + 1 : 0;
        return moved;
    }

    /** can_migrate_task: allowed on dst, not running, not cache-hot (task_hot) unless the domain failed often enough. */
    private boolean canMigrate(LinuxTask t, int dst, SchedDomain sd, int failures) {
        // a delayed sleeper moves only when migrating load (6.12 can_migrate_task); the model never moves it
        if (!t.v.allowedOn(dst) || t.delayed) {
            return false;
        }
        boolean hot = policy.ctx.now() - t.execStart < policy.params.migrationCostNanos;
        return !hot || failures > sd.cacheNiceTries;
    }

    private long groupLoad(int[] cpus) {
        long load = 0;
        for (int c : cpus) {
            load += cpuLoad(policy.rqs[c]);
        }
        return load;
    }

    /**
     * cpu_load: the PELT load average of the queue's runnable tasks (cfs_rq->avg.load_avg without the decaying
     * blocked part), so a thread that wakes for 50 us every 2 ms weighs ~2.5% of its weight, not all of it.
     */
    private long cpuLoad(LinuxRq rq) {
        long now = policy.ctx.now();
        LinuxTask running = rq.runningTask();
        long load = running != null && running.onRq ? running.loadAvg(now) : 0;
        for (LinuxTask t : rq.queuedTasks()) {
            load += t.loadAvg(now);
        }
        return load;
    }

    private boolean hasMovable(int[] cpus, int dst) {
        for (int c : cpus) {
            for (LinuxTask t : policy.rqs[c].queuedTasks()) {
                if (t.v.allowedOn(dst)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** find_busiest_queue: the most loaded queue of the group with a waiting task allowed on dst. */
    private LinuxRq busiestQueue(int[] cpus, int dst) {
        LinuxRq best = null;
        long bestLoad = 0;
        for (int c : cpus) {
            LinuxRq rq = policy.rqs[c];
            boolean movable = false;
            for (LinuxTask t : rq.queuedTasks()) {
                if (t.v.allowedOn(dst)) {
                    movable = true;
                    break;
                }
            }
            if (movable) {
                long load = cpuLoad(rq);
                if (best == null || load > bestLoad) {
                    best = rq;
                    bestLoad = load;
                }
            }
        }
        return best;
    }
}

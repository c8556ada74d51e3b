package io.schedlab.engine.policies.credit;

import io.schedlab.engine.hypervisor.XenParameters;
import io.schedlab.engine.model.Pcpu;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.model.Vcpu;
import io.schedlab.engine.model.VcpuState;
import io.schedlab.engine.model.Vm;
import io.schedlab.engine.policies.Decision;
import io.schedlab.engine.policies.SchedulerContext;
import io.schedlab.engine.policies.SchedulerPolicy;
import io.schedlab.engine.policies.SelfCheckAssumptions;
import io.schedlab.engine.policies.coresched.CoreScheduling;
import io.schedlab.engine.policies.xen.AffinityBalance;
import io.schedlab.engine.policies.xen.XenInsert;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.StatisticSpec;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * Xen's credit (credit1) scheduler, after xen/common/sched/credit.c: weighted fair share by
 * credits handed out once per timeslice ({@code csched_acct}), burned by running vCPUs
 * ({@code burn_credits}, {@code csched_tick}), BOOST/UNDER/OVER/IDLE priorities, one run queue
 * per pCPU, work stealing by pCPUs with nothing better to do ({@code csched_load_balance}),
 * placement ({@code _csched_cpu_pick}), tickling on wake ({@code __runq_tickle}), rate limiting
 * and cap parking. Function names in comments are those of credit.c.
 */
public final class CreditPolicy implements SchedulerPolicy, SelfCheckAssumptions {

    /** Registry entry: name "credit", parameters of {@link CreditParams}. */
    public static PolicyDescriptor descriptor() {
        return new PolicyDescriptor("credit",
                "Xen credit1: weights/caps via credits per 30 ms slice, BOOST/UNDER/OVER, per-pCPU queues, work stealing",
                CoreScheduling.withGranularityParameter(CreditParams.specs()),
                p -> CoreScheduling.wrap(p, new CreditPolicy(CreditParams.from(p))))
                .withSchedParams(XenParameters.vmSpecs(), List.of(), null).withStatistics(List.of(
                        StatisticSpec.runAndVcpu(STAT_STEALS, "count",
                                "vCPUs taken from a peer's run queue by work stealing (csched_runq_steal)")))
                .with(new CreditCostHints()).with(CoreScheduling.specRules())
                .with(XenInsert.picksFrom48("csched_unit_insert -> csched_res_pick (xen/common/sched/credit.c)"));
    }

    static final String STAT_STEALS = "steals";

    private final CreditParams params;
    private long steals;
    private final CreditAccounting accounting;
    private SchedulerContext ctx;
    private Topology topo;
    private int n;
    private CreditPcpu[] pcpus;
    /** The topology's pCPUs by id, as an array (the steal walk reads one per peer). */
    private Pcpu[] hostCpus;
    private CreditCpuPicker picker;
    /**
     * prv->idlers: pCPUs that scheduled idle and were not tickled since (change with setIdler /
     * clearIdler, read with isIdler). On hosts of at most 64 pCPUs kept as the word
     * {@link #idlersWord} only; on larger hosts as this BitSet only.
     */
    private final BitSet idlers = new BitSet();
    private long idlersWord;
    /** prv->runq_sort epoch. */
    private int sortEpoch;
    /** prv->balance_bias per NUMA node. */
    private int[] balanceBias;
    /** pCPU ids of each NUMA node, ascending. */
    private int[][] nodeCpus;
    /** Head of each pCPU's run queue (null: empty), kept by {@link CreditPcpu}: the steal walk reads no list. */
    private CreditVcpu[] heads;
    /** last_tickle_cpu (Xen keeps one per pCPU; one global cursor is enough here). */
    private int lastTickleCpu;
    private boolean capsSeen;
    /** vCPUs with a useful soft affinity (has_soft_affinity). */
    private int softAffine;
    private final List<Vcpu> vcpus = new ArrayList<>();
    private final BitSet tickleMask = new BitSet();
    private final BitSet tickleScratch = new BitSet();

    public CreditPolicy(CreditParams params) {
        this.params = params;
        this.accounting = new CreditAccounting(params, this::park, this::unpark);
    }

    public CreditParams params() {
        return params;
    }

    @Override
    public void init(SchedulerContext context) {
        this.ctx = context;
        this.topo = context.topology();
        this.n = topo.size();
        this.pcpus = new CreditPcpu[n];
        this.heads = new CreditVcpu[n];
        this.hostCpus = topo.pcpus().toArray(new Pcpu[0]);
        for (int i = 0; i < n; i++) {
            pcpus[i] = new CreditPcpu(i, heads);
            topo.pcpu(i).policyData = pcpus[i];
            setIdler(i);
        }
        this.picker = new CreditCpuPicker(topo);
        this.balanceBias = new int[Math.max(1, topo.numaNodes())];
        nodeCpus = new int[balanceBias.length][];
        for (int node = 0; node < balanceBias.length; node++) {
            balanceBias[node] = -1;
            final int nd = node;
            nodeCpus[node] = topo.pcpus().stream().filter(p -> p.numaNode == nd).mapToInt(p -> p.id).toArray();
        }
        long now = ctx.now();
        // csched_tick: one ticker per pCPU, every tslice / CSCHED_TICKS_PER_TSLICE.
        tickers = new Ticker[n];
        for (int i = 0; i < n; i++) {
            final int cpu = i;
            scheduleTick(cpu, now + params.tickNanos());
        }
        // csched_acct: the master ticker, once per timeslice.
        scheduleAcct(now + params.tsliceNanos());
    }

    private void scheduleTick(int cpu, long at) {
        Ticker t = tickers[cpu];
        if (t == null) {
            t = new Ticker(cpu);
            tickers[cpu] = t;
        }
        t.at = at;
        ctx.setTimer(at, t);
    }

    /** One reusable timer action per pCPU (one tick is pending per pCPU at a time): no allocation per tick. */
    private final class Ticker implements Runnable {
        private final int cpu;
        private long at;

        Ticker(int cpu) {
            this.cpu = cpu;
        }

        @Override
        public void run() {
            tick(cpu);
            scheduleTick(cpu, at + params.tickNanos());
        }
    }

    private Ticker[] tickers = new Ticker[0];

    private void scheduleAcct(long at) {
        ctx.setTimer(at, () -> {
            account();
            scheduleAcct(at + params.tsliceNanos());
        });
    }

    private void setIdler(int cpu) {
        if (n <= Long.SIZE) {
            idlersWord |= 1L << cpu;
        } else {
            idlers.set(cpu);
        }
    }

    private void clearIdler(int cpu) {
        if (n <= Long.SIZE) {
            idlersWord &= ~(1L << cpu);
        } else {
            idlers.clear(cpu);
        }
    }

    private boolean isIdler(int cpu) {
        return n <= Long.SIZE ? (idlersWord & (1L << cpu)) != 0 : idlers.get(cpu);
    }

    // ---------------------------------------------------------------- vCPU lifecycle

    @Override
    public void addVcpu(Vcpu v) {
        if (v.vm.policyData == null) {
            v.vm.policyData = new CreditDomain(v.vm);
        }
        CreditVcpu svc = new CreditVcpu(v, CreditDomain.of(v.vm));
        v.policyData = svc;
        svc.affinityChanged(n);
        capsSeen |= v.vm.cap > 0;
        vcpus.add(v);
        if (v.hasSoftAffinity()) {
            softAffine++;
        }
    }

    @Override
    public void removeVcpu(Vcpu v) {
        CreditVcpu svc = CreditVcpu.of(v);
        dequeue(svc);
        vcpus.remove(v);
        countSoftAffine();
        if (svc.active) {
            acctStop(svc);
        }
    }

    /**
     * Where the simulator queues a vCPU that becomes runnable. The first time, csched_unit_insert: up to 4.7 it
     * keeps the processor the domain was created with, from 4.8 it picks (9f358ddd69 "xen: Have schedulers
     * revise initial placement"). After that a wake-up does not pick: vcpu_wake calls only csched_vcpu_wake,
     * which queues the vCPU on its processor and tickles from there (xen/common/schedule.c and sched_credit.c
     * RELEASE-4.6.0; sched/core.c vcpu_wake and sched/credit.c csched_unit_wake today); only vcpu_migrate (an
     * affinity that excludes the processor, a kick-away, a tick's better pCPU) reaches csched_cpu_pick.
     */
    @Override
    public int pickCpu(Vcpu v) {
        CreditVcpu svc = CreditVcpu.of(v);
        boolean first = !svc.inserted;
        svc.inserted = true;
        if (v.allowedOn(v.processor) && !(first && params.xenVersion().atLeast(8))) {
            return v.processor;
        }
        return pick(v);
    }

    /** csched_cpu_pick -> _csched_cpu_pick(commit = true), as vcpu_migrate calls it. */
    private int pick(Vcpu v) {
        return picker.pick(CreditVcpu.of(v), idlers, idlersWord, isRunqIdle(v.processor), pcpus, true);
    }

    /** is_runq_idle: nothing queued on the pCPU (the idle vCPU heads Xen's runq). */
    private boolean isRunqIdle(int cpu) {
        return pcpus[cpu].runq.isEmpty();
    }

    @Override
    public void wake(Vcpu v) {
        CreditVcpu svc = CreditVcpu.of(v);
        if (svc.onRunq || svc.parked) {
            // csched_unit_wake: already queued; parked vCPUs are paused until csched_acct unparks them.
            return;
        }
        Pcpu p = hostCpus[v.processor];
        if (p.current == v) {
            return;
        }
        // csched_unit_wake: a waking UNDER vCPU is boosted, unless parked by its cap.
        if (svc.pri == CreditVcpu.PRI_UNDER) {
            svc.pri = CreditVcpu.PRI_BOOST;
        }
        svc.yield = false;
        pcpus[v.processor].insert(svc);
        runqTickle(svc);
    }

    @Override
    public void sleep(Vcpu v) {
        // csched_unit_sleep: dequeue; the simulator reschedules the pCPU if v was running.
        dequeue(CreditVcpu.of(v));
    }

    /** Remove from whichever run queue holds svc (normally that of v.processor). */
    private void dequeue(CreditVcpu svc) {
        pcpus[svc.vcpu.processor].remove(svc);
        for (int i = 0; svc.onRunq && i < n; i++) {
            pcpus[i].remove(svc);
        }
    }

    @Override
    public void yield(Vcpu v) {
        // csched_unit_yield: let the next __runq_insert put v behind one lower-priority vCPU.
        CreditVcpu.of(v).yield = true;
    }

    @Override
    public void affinityChanged(Vcpu v) {
        // The simulator moves v if its pCPU is no longer allowed; here the soft count and the
        // picker's affinity words change.
        CreditVcpu.of(v).affinityChanged(n);
        countSoftAffine();
    }

    private void countSoftAffine() {
        int c = 0;
        for (Vcpu v : vcpus) {
            if (v.hasSoftAffinity()) {
                c++;
            }
        }
        softAffine = c;
    }

    @Override
    public void domainParamsChanged(Vm vm) {
        // csched_dom_cntl: keep prv->weight consistent with the new weight.
        CreditDomain sdom = CreditDomain.of(vm);
        if (sdom == null) {
            return;
        }
        accounting.weightChanged(sdom, vm.weight);
        capsSeen |= vm.cap > 0;
    }

    // ---------------------------------------------------------------- do_schedule

    @Override
    public Decision doSchedule(Pcpu p, Vcpu prev, boolean prevYielded) {
        long now = ctx.now();
        CreditPcpu spc = pcpus[p.id];
        CreditVcpu scurr = prev == null ? null : CreditVcpu.of(prev);
        if (scurr != null) {
            burnCredits(scurr, now);
            scurr.lastSchedTime = now;
        }
        if (spc.sortEpoch != sortEpoch) {
            spc.sortByPriorityClass();
            spc.sortEpoch = sortEpoch;
        }
        boolean prevRunnable = scurr != null && prev.state == VcpuState.RUNNING && !scurr.parked
                && !scurr.migrating && prev.allowedOn(p.id);
        if (scurr != null && prevYielded) {
            scurr.yield = true;
        }
        // Rate limit (csched_schedule): keep a non-yielding current vCPU until it ran ratelimit.
        long ratelimit = params.ratelimitNanos();
        if (prevRunnable && ratelimit > 0 && !scurr.yield) {
            long runtime = now - scurr.runStart;
            if (runtime < ratelimit) {
                scurr.startTime = now;
                return new Decision(prev, params.ratelimitSliceIsRemainder() ? ratelimit - runtime : ratelimit);
            }
        }
        if (prevRunnable) {
            spc.insert(scurr);
        }
        if (scurr != null) {
            scurr.yield = false;
        }
        CreditVcpu snext = spc.head();
        int snextPri = snext == null ? CreditVcpu.PRI_IDLE : snext.pri;
        boolean retryBalance = false;
        if (snextPri > CreditVcpu.PRI_OVER) {
            spc.remove(snext);
        } else {
            // csched_load_balance when the best local work is OVER or IDLE, at most once per
            // load_balance_ratelimit (from 4.18; every time before, see CreditParams.loadBalanceRatelimitNanos).
            long lbLimit = params.loadBalanceRatelimitNanos();
            if (now - spc.lastLoadBalance >= lbLimit) {
                spc.lastLoadBalance = now;
                CreditVcpu stolen = loadBalance(p.id, snextPri);
                if (stolen != null) {
                    snext = stolen;
                }
            } else {
                retryBalance = true;
            }
            if (snext != null && snext.onRunq) {
                spc.remove(snext);
            }
        }
        if (snext == null) {
            setIdler(p.id);
            if (retryBalance) {
                // Model choice: an idle pCPU that skipped stealing because of the balance rate limit
                // looks again when the limit expires (Xen would wait for the next tickle).
                return new Decision(null, spc.lastLoadBalance + params.loadBalanceRatelimitNanos() - now);
            }
            return Decision.idle();
        }
        clearIdler(p.id);
        if (snext != scurr) {
            snext.runStart = now;
        }
        snext.startTime = now;
        snext.running = true;
        if (snext.vcpu.processor != p.id) {
            snext.vcpu.processor = p.id;
        }
        snext.lastDecision = Decision.reuse(snext.lastDecision, snext.vcpu, params.tsliceNanos());
        return snext.lastDecision;
    }

    @Override
    public void contextSaved(Vcpu prev) {
        CreditVcpu svc = CreditVcpu.of(prev);
        if (svc == null) {
            return;
        }
        svc.running = false;
        if (svc.migrating) {
            svc.migrating = false;
            // vcpu_migrate after context_saved: pick a new pCPU and wake there, boosted before 4.7
            // (csched_vcpu_wake; see CreditParams.boostsMigratingWake).
            if (prev.state == VcpuState.RUNNABLE && !svc.parked && !svc.onRunq) {
                prev.processor = pick(prev);
                if (params.boostsMigratingWake() && svc.pri == CreditVcpu.PRI_UNDER) {
                    svc.pri = CreditVcpu.PRI_BOOST;
                }
                pcpus[prev.processor].insert(svc);
                runqTickle(svc);
            }
        } else if (prev.state == VcpuState.RUNNABLE && !svc.parked && !svc.onRunq
                && !prev.allowedOn(prev.processor)) {
            prev.processor = pick(prev);
            pcpus[prev.processor].insert(svc);
            runqTickle(svc);
        }
    }

    // ---------------------------------------------------------------- credits

    /** burn_credits: creditsPerMs per ms of running, keeping the sub-credit remainder. */
    private void burnCredits(CreditVcpu svc, long now) {
        long delta = now - svc.startTime;
        if (delta <= 0) {
            return;
        }
        long val = delta * params.creditsPerMs() + svc.residual;
        long credits = val / 1_000_000L;
        svc.residual = val % 1_000_000L;
        svc.credit -= (int) credits;
        svc.startTime = now;
    }

    /** csched_tick on one pCPU: account the running vCPU, then resort the run queue if needed. */
    void tick(int cpu) {
        Pcpu p = hostCpus[cpu];
        Vcpu cur = p.current;
        if (cur != null && cur.policyData instanceof CreditVcpu svc && cur.state == VcpuState.RUNNING) {
            unitAcct(p, svc);
        }
        CreditPcpu spc = pcpus[cpu];
        if (spc.sortEpoch != sortEpoch) {
            spc.sortByPriorityClass();
            spc.sortEpoch = sortEpoch;
        }
    }

    /** csched_unit_acct: drop BOOST, burn, join the active list, or check for a better pCPU. */
    private void unitAcct(Pcpu p, CreditVcpu svc) {
        if (svc.pri == CreditVcpu.PRI_BOOST) {
            svc.pri = CreditVcpu.PRI_UNDER;
        }
        burnCredits(svc, ctx.now());
        if (!svc.active) {
            acctStart(svc);
        } else if (!svc.migrating) {
            int newCpu = picker.pick(svc, idlers, idlersWord, isRunqIdle(p.id), pcpus, false);
            if (newCpu != p.id) {
                svc.migrating = true;
                ctx.tickle(p.id);
            }
        }
    }

    private void acctStart(CreditVcpu svc) {
        accounting.start(svc);
    }

    private void acctStop(CreditVcpu svc) {
        accounting.stop(svc);
    }

    /** csched_acct (see {@link CreditAccounting#account}), then mark run queues for resorting. */
    void account() {
        accounting.account(n);
        sortEpoch++;
    }

    /** vcpu_pause_nosync on a capped-out vCPU: off the run queue, off its pCPU. */
    private void park(CreditVcpu svc) {
        svc.parked = true;
        Vcpu v = svc.vcpu;
        dequeue(svc);
        if (v.state == VcpuState.RUNNING) {
            ctx.tickle(v.processor);
        }
    }

    /** vcpu_unpause: back on a run queue if runnable (not boosted: the flag clears after). */
    private void unpark(CreditVcpu svc) {
        svc.parked = false;
        Vcpu v = svc.vcpu;
        if (v.state == VcpuState.RUNNABLE && !svc.onRunq && !svc.running) {
            v.processor = pick(v);
            pcpus[v.processor].insert(svc);
            runqTickle(svc);
        }
    }

    // ---------------------------------------------------------------- tickling

    /** __runq_tickle: preempt the pCPU when idle or beaten, else wake one suitable idler. */
    private void runqTickle(CreditVcpu snew) {
        Vcpu v = snew.vcpu;
        int cpu = v.processor;
        Pcpu p = hostCpus[cpu];
        CreditVcpu cur = p.current == null ? null : CreditVcpu.of(p.current);
        int curPri = cur == null ? CreditVcpu.PRI_IDLE : cur.pri;
        if (n <= Long.SIZE) {
            runqTickleWords(snew, cpu, cur, curPri);
            return;
        }
        BitSet mask = tickleMask;
        mask.clear();
        boolean idlersEmpty = idlers.isEmpty();
        // Exclusive pinning to an idle pCPU.
        if (AffinityBalance.cycle(cpu, v.hardAffinity, n) == cpu && idlers.get(cpu)) {
            mask.set(cpu);
        } else if (curPri == CreditVcpu.PRI_IDLE || (idlersEmpty && snew.pri > curPri)) {
            mask.set(cpu);
        } else if (!idlersEmpty) {
            for (int step = AffinityBalance.SOFT; step <= AffinityBalance.HARD; step++) {
                if (AffinityBalance.skip(v, step)) {
                    continue;
                }
                BitSet scratch = tickleScratch;
                scratch.clear();
                scratch.or(v.hardAffinity);
                if (step == AffinityBalance.SOFT) {
                    scratch.and(v.softAffinity);
                }
                scratch.and(idlers);
                boolean newIdlersEmpty = scratch.isEmpty();
                if (newIdlersEmpty && step == AffinityBalance.SOFT) {
                    continue;
                }
                if (newIdlersEmpty && snew.pri > curPri) {
                    if (cur != null && (!params.kicksAwayOnlyToIdlers() || cur.vcpu.hardAffinity.intersects(idlers))) {
                        cur.migrating = true; // kicked away
                    }
                    mask.set(cpu);
                } else if (!newIdlersEmpty) {
                    if (params.tickleOneIdle()) {
                        lastTickleCpu = AffinityBalance.cycle(lastTickleCpu, scratch, n);
                        mask.set(lastTickleCpu);
                    } else {
                        mask.or(scratch);
                    }
                }
                if (!mask.isEmpty()) {
                    break;
                }
            }
        }
        for (int i = mask.nextSetBit(0); i >= 0; i = mask.nextSetBit(i + 1)) {
            clearIdler(i);
            ctx.tickle(i);
        }
    }

    /** {@link #runqTickle} with one-word masks (hosts of at most 64 pCPUs), step for step. */
    private void runqTickleWords(CreditVcpu snew, int cpu, CreditVcpu cur, int curPri) {
        long idle = idlersWord;
        long self = 1L << cpu;
        long mask = 0;
        // Exclusive pinning to an idle pCPU.
        if (AffinityBalance.cycle(cpu, snew.hardWord) == cpu && (idle & self) != 0) {
            mask = self;
        } else if (curPri == CreditVcpu.PRI_IDLE || (idle == 0 && snew.pri > curPri)) {
            mask = self;
        } else if (idle != 0) {
            for (int step = AffinityBalance.SOFT; step <= AffinityBalance.HARD; step++) {
                if (step == AffinityBalance.SOFT && !snew.softUseful) {
                    continue;
                }
                long newIdlers = snew.hardWord & (step == AffinityBalance.SOFT ? snew.softWord : -1L) & idle;
                if (newIdlers == 0 && step == AffinityBalance.SOFT) {
                    continue;
                }
                if (newIdlers == 0 && snew.pri > curPri) {
                    if (cur != null && (!params.kicksAwayOnlyToIdlers() || (cur.hardWord & idle) != 0)) {
                        cur.migrating = true; // kicked away
                    }
                    mask = self;
                } else if (newIdlers != 0) {
                    if (params.tickleOneIdle()) {
                        lastTickleCpu = AffinityBalance.cycle(lastTickleCpu, newIdlers);
                        mask = 1L << lastTickleCpu;
                    } else {
                        mask |= newIdlers;
                    }
                }
                if (mask != 0) {
                    break;
                }
            }
        }
        for (long m = mask; m != 0; m &= m - 1) {
            int i = Long.numberOfTrailingZeros(m);
            clearIdler(i);
            ctx.tickle(i);
        }
    }

    // ---------------------------------------------------------------- work stealing

    /**
     * csched_load_balance: soft then hard step; NUMA nodes from our own; in each, non-idle pCPUs
     * from the node's round-robin bias; steal the first suitable vCPU (csched_runq_steal).
     */
    private CreditVcpu loadBalance(int cpu, int pri) {
        int nodes = balanceBias.length;
        int node = hostCpus[cpu].numaNode;
        // The soft step can only steal vCPUs with a soft affinity: skip its walk when none has one.
        int firstStep = softAffine > 0 ? AffinityBalance.SOFT : AffinityBalance.HARD;
        for (int step = firstStep; step <= AffinityBalance.HARD; step++) {
            int peerNode = node;
            do {
                int[] cpus = nodeCpus[peerNode];
                int k = cpus.length;
                int start = 0;
                while (start < k && cpus[start] <= balanceBias[peerNode]) {
                    start++;
                }
                if (k > 0) {
                    // Non-idle pCPUs of the node with queued vCPUs (the others cannot be stolen from),
                    // cycled from the first after the node's bias, in ascending pCPU order. Queued,
                    // such a peer has nr_runnable <= 1 only when nothing runs there, where runqSteal
                    // gives up. A peer whose queue head is not above pri is skipped: runqSteal's walk
                    // would stop at the head (the queue is in priority order).
                    int s0 = start % k;
                    for (int j = 0; j < k; j++) {
                        int peer = cpus[j + s0 < k ? j + s0 : j + s0 - k];
                        CreditVcpu head = heads[peer];
                        if (head == null || head.pri <= pri || peer == cpu || isIdler(peer)) {
                            continue;
                        }
                        CreditVcpu speer = runqSteal(peer, cpu, pri, step);
                        if (speer != null) {
                            balanceBias[peerNode] = peer;
                            return speer;
                        }
                    }
                }
                peerNode = (peerNode + 1) % nodes;
            } while (peerNode != node);
        }
        return null;
    }

    /** csched_runq_steal: first queued vCPU of strictly higher priority that may move here. */
    private CreditVcpu runqSteal(int peer, int cpu, int pri, int step) {
        if (hostCpus[peer].current == null) {
            return null; // an idle pCPU is about to pick up its own work
        }
        List<CreditVcpu> runq = pcpus[peer].runq;
        for (int i = 0; i < runq.size(); i++) {
            CreditVcpu speer = runq.get(i);
            if (speer.pri <= pri) {
                break;
            }
            Vcpu v = speer.vcpu;
            if (speer.running || (step == AffinityBalance.SOFT && !v.hasSoftAffinity())) {
                continue;
            }
            boolean allowed = v.hardAffinity.get(cpu) && (step == AffinityBalance.HARD || v.softAffinity.get(cpu));
            if (allowed && !isCacheHot(speer)) {
                speer.stolen++;
                steals++;
                pcpus[peer].remove(speer);
                v.processor = cpu;
                return speer;
            }
        }
        return null;
    }

    /** __csched_vcpu_is_cache_hot: ran within vcpu_migration_delay (0 = never hot). */
    private boolean isCacheHot(CreditVcpu svc) {
        long delay = params.vcpuMigrationDelayUs() * 1_000L;
        return delay > 0 && ctx.now() - svc.lastSchedTime < delay;
    }

    // ---------------------------------------------------------------- introspection

    @Override
    public Map<String, Long> statistics() {
        return Map.of(STAT_STEALS, steals);
    }

    @Override
    public Map<String, Long> statistics(Vcpu v) {
        CreditVcpu svc = (CreditVcpu) v.policyData;
        return svc == null ? Map.of() : Map.of(STAT_STEALS, svc.stolen);
    }

    @Override
    public int lockDomain(Pcpu p) {
        return p.id; // one scheduler lock per pCPU run queue
    }

    @Override
    public int runqueueCount() {
        return n;
    }

    @Override
    public boolean workConserving() {
        return !capsSeen;
    }

    /**
     * csched_schedule puts a preempted vCPU back with __runq_insert and tickles nobody ("When we're
     * idling, other CPUs will tickle us when they get extra work"), an idle pCPU stops its ticker
     * (stop_timer(&spc->ticker)) and so never balances on its own, and csched_unit_acct only moves the
     * running vCPU: a vCPU left queued behind a higher-priority one may wait beside an idle pCPU it may
     * use until it runs again. Only __runq_tickle on wake or migration offers it to idle pCPUs.
     */
    @Override
    public boolean requeueTicklesIdlers() {
        return false;
    }

    @Override
    public long balancePeriodNanos() {
        return params.tsliceNanos();
    }

    /** Credit of a vCPU (for tests and traces). */
    public static int creditOf(Vcpu v) {
        return CreditVcpu.of(v).credit;
    }

    /** Priority of a vCPU: 0 BOOST, -1 UNDER, -2 OVER (for tests and traces). */
    public static int priorityOf(Vcpu v) {
        return CreditVcpu.of(v).pri;
    }

    /** Whether the vCPU is parked by its domain's cap. */
    public static boolean isParked(Vcpu v) {
        return CreditVcpu.of(v).parked;
    }

    /** Queued vCPUs of a pCPU in run-queue order (for tests). */
    public List<Vcpu> runqueue(int cpu) {
        List<Vcpu> out = new ArrayList<>();
        for (CreditVcpu s : pcpus[cpu].runq) {
            out.add(s.vcpu);
        }
        return out;
    }

    /** Sum of weight x active vCPUs over active domains (prv->weight). */
    public long totalActiveWeight() {
        return accounting.totalWeight();
    }
}

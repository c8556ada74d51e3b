package io.schedlab.engine.policies.credit2;

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
import io.schedlab.engine.policies.xen.XenVersion;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.spec.SpecRules;
import io.schedlab.engine.registry.StatisticSpec;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * Xen's credit2 scheduler after xen/common/sched/credit2.c: credit in ns burned at
 * max_weight/weight ({@code burn_credits}), per-run-queue resets ({@code reset_credit}) that
 * also balance load ({@code balance_load}), run queues per cpu|core|socket|node|all,
 * {@code runq_candidate} with migration resistance, {@code csched2_runtime} timer, wake
 * placement ({@code csched2_res_pick}) and tickling ({@code runq_tickle}), caps by domain budget
 * (4.10+). Behaviour that changed across releases follows {@link Credit2Params#xenVersion()}.
 */
public final class Credit2Policy implements SchedulerPolicy, SelfCheckAssumptions {

    public static final String NAME = "credit2";

    /** Registry entry: name "credit2", parameters of {@link Credit2Params}. */
    public static PolicyDescriptor descriptor() {
        return new PolicyDescriptor(NAME,
                "Xen credit2: ns credits with per-run-queue resets, load balancing, migration resistance; Xen-version aware",
                CoreScheduling.withGranularityParameter(Credit2Params.specs()),
                p -> CoreScheduling.wrap(p, new Credit2Policy(Credit2Params.from(p))))
                .withSchedParams(XenParameters.vmSpecs(), List.of(), null).withStatistics(List.of(
                        StatisticSpec.run(STAT_RESETS, "count", "credit resets (reset_credit), all run queues"),
                        StatisticSpec.run(STAT_BALANCES, "count", "balance_load calls that moved a vCPU"),
                        StatisticSpec.runAndVcpu(STAT_BALANCE_MOVES, "count",
                                "vCPUs moved to another run queue by balance_load (push and pull)"),
                        StatisticSpec.runAndVcpu(STAT_TICKLES, "count",
                                "pCPUs runq_tickle chose (an IPI) for a waking or re-queued vCPU")))
                .with(new Credit2CostHints()).with((SpecRules) (raw, normalized) -> Credit2CapRules.violations(normalized))
                .with((SpecRules) (raw, normalized) -> Credit2Params.violations(normalized))
                .with(CoreScheduling.specRules())
                .with(XenInsert.picksFrom48("csched2_unit_insert -> csched2_res_pick (xen/common/sched/credit2.c)"));
    }

    static final String STAT_RESETS = "creditResets";
    static final String STAT_BALANCES = "loadBalances";
    static final String STAT_BALANCE_MOVES = "balanceMoves";
    static final String STAT_TICKLES = "tickles";

    private final Credit2Params params;
    private final XenVersion version;
    private final long creditInit;
    private final long creditMin;
    private final long carryoverMax;
    private final long minTimer;
    private final long maxTimer;
    private final long migrateResist;
    private final long migrateCompensation;
    private final long ratelimit;
    private final LoadTracker loads;
    private final LoadBalancer balancer;
    private SchedulerContext ctx;
    private Topology topo;
    private int n;
    private RunqueueLayout layout;
    private final List<Credit2Runqueue> rqs = new ArrayList<>();
    private Credit2Runqueue[] rqOfCpu;
    /** Words per pCPU mask. */
    private int maskWords;
    /** The pCPUs sharing each pCPU's core (itself included): pCPU c's mask is words [c x maskWords, (c + 1) x maskWords). */
    private long[] siblings;
    private Tickler tickler;
    private final int[] skippedScratch = new int[1];
    /** Queued vCPUs whose tickled_cpu is each pCPU. */
    private int[] reservations;
    private boolean capsSeen;

    public Credit2Policy(Credit2Params params) {
        this.params = params;
        this.version = params.xenVersion();
        this.creditInit = Credit2Params.us(params.creditInitUs());
        this.creditMin = Credit2Params.us(params.creditMinUs());
        this.carryoverMax = Credit2Params.us(params.carryoverMaxUs());
        this.minTimer = Credit2Params.us(params.minTimerUs());
        this.maxTimer = Credit2Params.us(params.effectiveMaxTimerUs());
        this.idleDecision = version.credit2IdleTimer() ? new Decision(null, maxTimer) : Decision.idle();
        this.migrateResist = Credit2Params.us(params.migrateResistUs());
        this.migrateCompensation = Credit2Params.us(params.migrateCompensationUs());
        // credit2 rate limiting arrived in 4.8 ("xen: credit2: implement ratelimiting").
        this.ratelimit = version.atLeast(8) ? Credit2Params.us(params.ratelimitUs()) : 0;
        this.loads = new LoadTracker(params.effectiveLoadWindowShift(), version.loadGranularityShift());
        this.balancer = new LoadBalancer(params);
    }

    public Credit2Params params() {
        return params;
    }

    @Override
    public void init(SchedulerContext context) {
        this.ctx = context;
        this.topo = context.topology();
        this.n = topo.size();
        this.layout = new RunqueueLayout(topo, params.effectiveRunqueue(), params.effectiveMaxCpusPerRunqueue(),
                context.onlineCpus(), version.runqueueAllIgnoresCoreRoom());
        for (int i = 0; i < layout.count(); i++) {
            rqs.add(new Credit2Runqueue(i, n));
        }
        rqOfCpu = new Credit2Runqueue[n];
        reservations = new int[n];
        tickler = new Tickler(topo, version, migrateResist, creditInit, ratelimit, new Tickler.CreditProbe() {
            @Override
            public long creditOn(int cpu, long now) {
                return currentCredit(cpu, now);
            }

            @Override
            public long creditOf(Credit2Vcpu running, long now) {
                return runningCredit(running, now);
            }

        });
        maskWords = CpuMask.wordsFor(n);
        siblings = new long[n * maskWords];
        for (int cpu = 0; cpu < n; cpu++) {
            Credit2Runqueue rqd = rqs.get(layout.runqueueOf(cpu));
            rqOfCpu[cpu] = rqd;
            rqd.active.set(cpu);
            rqd.idle.set(cpu);
            tickler.joined(cpu, rqd);
            topo.pcpu(cpu).policyData = rqd;
            for (int j = 0; j < n; j++) {
                if (topo.sameCore(cpu, j)) {
                    siblings[cpu * maskWords + (j >>> 6)] |= 1L << j;
                }
            }
        }
        for (Credit2Runqueue rqd : rqs) {
            rqd.activeAssigned(n);
            rqd.pickBias = rqd.active.nextSetBit(0);
            rqd.loadLastUpdate = ctx.now();
            rqd.smtIdle.clear();
            for (int cpu = rqd.active.nextSetBit(0); cpu >= 0; cpu = rqd.active.nextSetBit(cpu + 1)) {
                smtIdleMaskSet(cpu, rqd);
            }
        }
    }

    // ---------------------------------------------------------------- load tracking

    private void updateRunqLoad(Credit2Runqueue rqd, int change, long now) {
        loads.updateRunq(rqd, change, now);
    }

    private void updateSvcLoad(Credit2Vcpu svc, long now) {
        loads.updateSvc(svc, now);
    }

    /** update_load: account a runnable (+1) / not runnable (-1) change of svc in rqd. */
    private void setLoaded(Credit2Vcpu svc, boolean loaded, long now) {
        if (svc.loaded == loaded || svc.rq == null) {
            return;
        }
        updateSvcLoad(svc, now);
        updateRunqLoad(svc.rq, loaded ? 1 : -1, now);
        svc.loaded = loaded;
    }

    // ---------------------------------------------------------------- run queue membership

    /** runq_assign. */
    private void assign(Credit2Vcpu svc, Credit2Runqueue rqd, long now) {
        svc.rq = rqd;
        rqd.svcs.add(svc);
        if (svc.weight > rqd.maxWeight) {
            rqd.maxWeight = svc.weight;
        }
        svc.loadLastUpdate = now;
    }

    /** runq_deassign. */
    private void deassign(Credit2Vcpu svc) {
        Credit2Runqueue rqd = svc.rq;
        if (rqd == null) {
            return;
        }
        rqd.svcs.remove(svc);
        rqd.recomputeMaxWeight();
        svc.rq = null;
    }

    /** Move a not-running vCPU to another run queue, carrying its load (migrate(), !scheduled branch). */
    private void moveTo(Credit2Vcpu svc, Credit2Runqueue trqd, int cpu, long now) {
        boolean onRunq = svc.onRunq;
        boolean loaded = svc.loaded;
        if (onRunq) {
            svc.rq.remove(svc);
        }
        setLoaded(svc, false, now);
        deassign(svc);
        assign(svc, trqd, now);
        svc.vcpu.processor = cpu;
        if (loaded) {
            setLoaded(svc, true, now);
        }
        if (onRunq) {
            trqd.insert(svc);
            runqTickle(svc, now);
        }
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public void addVcpu(Vcpu v) {
        if (v.vm.policyData == null) {
            v.vm.policyData = new Credit2Domain(v.vm);
            applyCap(Credit2Domain.of(v.vm));
        }
        Credit2Vcpu svc = new Credit2Vcpu(v, Credit2Domain.of(v.vm));
        v.policyData = svc;
        svc.affinityRead(n);
        // csched2_alloc_udata: credit starts at CSCHED2_CREDIT_INIT; csched2_unit_insert assigns a run queue.
        svc.credit = creditInit;
        int cpu = v.allowedOn(v.processor) ? v.processor : v.hardAffinity.nextSetBit(0);
        v.processor = cpu;
        assign(svc, rqOfCpu[cpu], ctx.now());
    }

    @Override
    public void affinityChanged(Vcpu v) {
        // the simulator moves v if its pCPU is no longer allowed; here only the cached affinity flags change
        if (v.policyData instanceof Credit2Vcpu svc) {
            svc.affinityRead(n);
        }
    }

    @Override
    public void removeVcpu(Vcpu v) {
        Credit2Vcpu svc = Credit2Vcpu.of(v);
        long now = ctx.now();
        if (svc.rq != null) {
            svc.rq.remove(svc);
        }
        setLoaded(svc, false, now);
        svc.dom.parked.remove(svc);
        setTickledCpu(svc, -1);
        deassign(svc);
    }

    /**
     * csched2_res_pick: a pending balancer move wins; else the least-loaded run queue meeting hard
     * affinity (own load discounted), preferring one that meets soft affinity (4.9+); the pCPU
     * within it round-robin from its pick_bias.
     */
    @Override
    public int pickCpu(Vcpu v) {
        Credit2Vcpu svc = Credit2Vcpu.of(v);
        boolean stays = svc.migrateRqd == null && svc.rq != null && v.allowedOn(v.processor)
                && rqOfCpu[v.processor] == svc.rq;
        if (!svc.inserted) {
            // The first placement is csched2_vcpu_insert: up to 4.7 it keeps the processor the domain was
            // created with (runq_assign of the initial processor, no pick); from 4.8 it calls csched2_cpu_pick.
            svc.inserted = true;
            if (stays && !version.atLeast(8)) {
                return v.processor;
            }
        } else if (stays) {
            // A wake-up does not pick: Xen's vcpu_wake calls only the policy's wake (schedule.c RELEASE-4.6.0,
            // sched/core.c later), and csched2_vcpu_wake queues the vCPU on its processor's run queue and tickles
            // from there. Only vcpu_migrate (an affinity that excludes the processor, a balancer request)
            // reaches choose_cpu / csched2_res_pick.
            return v.processor;
        }
        if (svc.migrateRqd != null) {
            Credit2Runqueue t = svc.migrateRqd;
            if (svc.reaches(t)) {
                return version.atLeast(7) ? pickInHard(v, t) : cycleFromProcessor(v, t);
            }
        }
        boolean hasSoft = version.softAffinity() && v.hasSoftAffinity();
        Credit2Runqueue minRq = null;
        Credit2Runqueue minSoftRq = null;
        double min = Double.MAX_VALUE;
        double minSoft = Double.MAX_VALUE;
        for (Credit2Runqueue rqd : rqs) {
            if (!svc.reaches(rqd)) {
                continue;
            }
            // b_avgload as last updated (csched2_res_pick reads it without updating)
            double load = rqd.avgload;
            if (rqd == svc.rq) {
                load = Math.max(0, load - svc.avgload);
            }
            if (hasSoft && load < minSoft && affine(v, rqd, AffinityBalance.SOFT)) {
                minSoft = load;
                minSoftRq = rqd;
            }
            if (load < min) {
                min = load;
                minRq = rqd;
            }
        }
        if (minSoftRq != null) {
            BitSet mask = AffinityBalance.maskInto(v, AffinityBalance.SOFT, maskScratch);
            mask.and(minSoftRq.active);
            return pickIn(minSoftRq, mask);
        }
        if (minRq == null) {
            return v.processor;
        }
        return version.atLeast(7) ? pickInHard(v, minRq) : cycleFromProcessor(v, minRq);
    }

    /**
     * 4.6 choose_cpu: cpumask_cycle(vc->processor, &rqd->active), the first pCPU of the chosen run queue after
     * the vCPU's processor, wrapping (sched_credit2.c RELEASE-4.6.0; 4.7 took cpumask_any, 4.9 pick_bias). 4.6
     * ignored hard affinity here ("FIXME"); the model keeps to it, as the simulator refuses a pCPU outside it.
     */
    private int cycleFromProcessor(Vcpu v, Credit2Runqueue rqd) {
        Credit2Vcpu svc = Credit2Vcpu.of(v);
        int cpu = nextAllowed(svc, rqd.activeMask.words, v.processor + 1);
        return cpu >= 0 ? cpu : nextAllowed(svc, rqd.activeMask.words, 0);
    }

    private boolean affine(Vcpu v, Credit2Runqueue rqd, int step) {
        return AffinityBalance.maskInto(v, step, maskScratch).intersects(rqd.active);
    }

    /** Scratch masks: each is filled and consumed before any call that could fill it again. */
    private final BitSet maskScratch = new BitSet();

    /** {@link #pickIn} over v's hard affinity within rqd's pCPUs, without building that mask. */
    private int pickInHard(Vcpu v, Credit2Runqueue rqd) {
        Credit2Vcpu svc = Credit2Vcpu.of(v);
        long[] active = rqd.activeMask.words;
        if (!version.atLeast(9)) {
            return nextAllowed(svc, active, 0);
        }
        // AffinityBalance.cycle: the first after pick_bias, else the first
        int cpu = nextAllowed(svc, active, rqd.pickBias + 1);
        if (cpu < 0) {
            cpu = nextAllowed(svc, active, 0);
        }
        rqd.pickBias = cpu;
        return cpu;
    }

    /** The first pCPU at or after {@code start} in mask and v's hard affinity, or -1. */
    private static int nextAllowed(Credit2Vcpu svc, long[] mask, int start) {
        for (int w = start >>> 6; w < mask.length; w++) {
            long bits = mask[w];
            if (w == start >>> 6) {
                bits &= -1L << start;
            }
            for (; bits != 0; bits &= bits - 1) {
                int c = (w << 6) + Long.numberOfTrailingZeros(bits);
                if (svc.allowedOn(c)) {
                    return c;
                }
            }
        }
        return -1;
    }

    /**
     * A pCPU of rqd within mask: round-robin from rqd->pick_bias (4.9+); before, Xen used
     * cpumask_any(), which was cpumask_first() in those releases.
     */
    private int pickIn(Credit2Runqueue rqd, BitSet mask) {
        if (!version.atLeast(9)) {
            return mask.nextSetBit(0);
        }
        int cpu = AffinityBalance.cycle(rqd.pickBias, mask, n);
        rqd.pickBias = cpu;
        return cpu;
    }

    @Override
    public void wake(Vcpu v) {
        Credit2Vcpu svc = Credit2Vcpu.of(v);
        long now = ctx.now();
        if (topo.pcpu(v.processor).current == v || svc.onRunq) {
            return;
        }
        if (svc.scheduled) {
            // Context not saved yet: re-queue in contextSaved.
            svc.delayedRunqAdd = true;
            return;
        }
        Credit2Runqueue target = rqOfCpu[v.processor];
        if (svc.rq != target) {
            // csched2_unit_migrate (via the core after pick_resource) for a sleeping vCPU.
            setLoaded(svc, false, now);
            deassign(svc);
            assign(svc, target, now);
        }
        svc.migrateRqd = null;
        if (svc.parked) {
            return;
        }
        setLoaded(svc, true, now);
        svc.rq.insert(svc);
        runqTickle(svc, now);
    }

    @Override
    public void sleep(Vcpu v) {
        // csched2_unit_sleep
        Credit2Vcpu svc = Credit2Vcpu.of(v);
        long now = ctx.now();
        setTickledCpu(svc, -1);
        if (svc.onRunq) {
            svc.rq.remove(svc);
            setLoaded(svc, false, now);
        } else if (svc.delayedRunqAdd) {
            svc.delayedRunqAdd = false;
        }
        if (!svc.scheduled) {
            setLoaded(svc, false, now);
        }
    }

    @Override
    public void yield(Vcpu v) {
        Credit2Vcpu.of(v).yield = true;
    }

    @Override
    public void domainParamsChanged(Vm vm) {
        Credit2Domain sdom = Credit2Domain.of(vm);
        if (sdom == null) {
            return;
        }
        long now = ctx.now();
        for (Vcpu v : vm.vcpus) {
            Credit2Vcpu svc = Credit2Vcpu.of(v);
            if (svc == null) {
                continue;
            }
            if (svc.rq != null && topo.pcpu(v.processor).current == v) {
                burnCredits(svc, now);
            }
            svc.weight = Math.max(1, vm.weight);
            if (svc.rq != null) {
                svc.rq.recomputeMaxWeight();
            }
        }
        applyCap(sdom);
    }

    // ---------------------------------------------------------------- caps (4.10+)

    /** csched2_dom_cntl: set tot_budget = cap% of the replenishment period; start/stop the timer. */
    private void applyCap(Credit2Domain sdom) {
        int cap = version.caps() ? sdom.vm.cap : 0;
        capsSeen |= cap > 0;
        long period = params.budgetReplPeriodMs() * 1_000_000L;
        if (cap > 0 && sdom.capInUse == 0) {
            sdom.totBudget = period * cap / 100;
            sdom.budget = sdom.totBudget;
            scheduleReplenish(sdom, ctx.now() + period);
        } else if (cap > 0) {
            sdom.totBudget = period * cap / 100;
        } else if (sdom.capInUse > 0) {
            if (sdom.replTimer != null) {
                sdom.replTimer.cancel();
                sdom.replTimer = null;
            }
            unparkAll(sdom);
        }
        sdom.capInUse = cap;
    }

    private void scheduleReplenish(Credit2Domain sdom, long at) {
        sdom.replTimer = ctx.setTimer(at, () -> {
            replenish(sdom);
            if (sdom.capInUse > 0) {
                scheduleReplenish(sdom, at + params.budgetReplPeriodMs() * 1_000_000L);
            }
        });
    }

    /** replenish_domain_budget: refill (paying back any overrun) and unpark. */
    private void replenish(Credit2Domain sdom) {
        sdom.budget = Math.min(sdom.budget + sdom.totBudget, sdom.totBudget);
        if (sdom.budget > 0) {
            unparkAll(sdom);
        }
    }

    private void unparkAll(Credit2Domain sdom) {
        long now = ctx.now();
        List<Credit2Vcpu> list = new ArrayList<>(sdom.parked);
        sdom.parked.clear();
        for (Credit2Vcpu svc : list) {
            svc.parked = false;
            Vcpu v = svc.vcpu;
            if (v.state == VcpuState.RUNNABLE && !svc.onRunq && !svc.scheduled && svc.rq != null) {
                setLoaded(svc, true, now);
                svc.rq.insert(svc);
                runqTickle(svc, now);
            }
        }
    }

    /** unit_grab_budget: keep remaining budget, else take a quota from the domain, else park. */
    private boolean grabBudget(Credit2Vcpu svc) {
        Credit2Domain sdom = svc.dom;
        if (!sdom.hasCap() || svc.budget > 0) {
            return true;
        }
        if (sdom.budget > 0) {
            long quota = sdom.quota(minTimer);
            long b = Math.min(quota, sdom.budget);
            svc.budget = b;
            sdom.budget -= b;
            return true;
        }
        svc.budget = 0;
        return false;
    }

    /**
     * svc's domain has a cap in use; without reading the domain while no domain ever had one
     * ({@link #capsSeen}: set before any capInUse becomes positive, never cleared).
     */
    private boolean capped(Credit2Vcpu svc) {
        assert capsSeen || !svc.dom.hasCap() : svc.vcpu + ": cap in use but capsSeen unset";
        return capsSeen && svc.dom.hasCap();
    }

    /** unit_return_budget. */
    private void returnBudget(Credit2Vcpu svc) {
        if (capped(svc)) {
            svc.dom.budget += svc.budget;
            svc.budget = 0;
        }
    }

    private void park(Credit2Vcpu svc, long now) {
        if (!svc.parked) {
            svc.parked = true;
            svc.dom.parked.add(svc);
        }
        svc.rq.remove(svc);
        setLoaded(svc, false, now);
    }

    // ---------------------------------------------------------------- credits

    /** burn_credits: credit -= elapsed x max_weight / weight (t2c_update), floored at CREDIT_MIN; budget -= elapsed. */
    private void burnCredits(Credit2Vcpu svc, long now) {
        long delta = now - svc.startTime;
        if (delta <= 0) {
            svc.startTime = Math.max(svc.startTime, now);
            return;
        }
        if (svc.weight == svc.rq.maxWeight) {
            svc.credit -= delta; // same as below without the division (residual < weight stays)
        } else {
            long val = delta * svc.rq.maxWeight + svc.residual;
            svc.residual = val % svc.weight;
            svc.credit -= val / svc.weight;
        }
        if (svc.credit < creditMin) {
            svc.credit = creditMin;
        }
        if (capped(svc)) {
            svc.budget -= delta;
        }
        svc.startTime = now;
        if (svc.onRunq) {
            svc.rq.creditChanged(svc);
        }
    }

    /** c2t: credit -> time at this vCPU's burn rate. */
    private long c2t(Credit2Runqueue rqd, long credit, Credit2Vcpu svc) {
        return credit * svc.weight / rqd.maxWeight;
    }

    /** reset_credit: everyone in the run queue gains m x CREDIT_INIT, clipped to INIT + carry-over. */
    private void resetCredit(Credit2Runqueue rqd, Credit2Vcpu snext, long now) {
        long m = 1;
        if (snext.credit < -creditInit) {
            m += (-snext.credit) / creditInit;
        }
        for (Credit2Vcpu svc : rqd.svcs) {
            Vcpu v = svc.vcpu;
            if (topo.pcpu(v.processor).current == v && v.state == VcpuState.RUNNING) {
                burnCredits(svc, now);
                if (capped(svc) && svc.budget <= 0) {
                    tickleCpu(v.processor, rqd);
                }
            }
            svc.credit += m * creditInit;
            if (svc.credit > creditInit + carryoverMax) {
                svc.credit = creditInit + carryoverMax;
            }
            svc.startTime = now;
        }
        rqd.creditsChanged();
        resets++;
    }

    private long resets;

    // ---------------------------------------------------------------- do_schedule

    @Override
    public Decision doSchedule(Pcpu p, Vcpu prev, boolean prevYielded) {
        long now = ctx.now();
        int cpu = p.id;
        Credit2Runqueue rqd = rqOfCpu[cpu];
        rqd.tickled.clear(cpu);
        Credit2Vcpu scurr = prev == null ? null : Credit2Vcpu.of(prev);
        boolean scurrRunnable = false;
        if (scurr != null) {
            burnCredits(scurr, now);
            if (prevYielded) {
                scurr.yield = true;
            }
            scurrRunnable = prev.state == VcpuState.RUNNING && scurr.migrateRqd == null && scurr.allowedOn(cpu)
                    && scurr.rq == rqd;
            if (scurrRunnable && capped(scurr) && !grabBudget(scurr)) {
                scurrRunnable = false;
                park(scurr, now);
            }
        }
        int[] skipped = skippedScratch;
        skipped[0] = 0;
        Credit2Vcpu snext = runqCandidate(rqd, scurr, scurrRunnable, cpu, now, skipped);
        retickleUntaken(rqd, cpu, snext, now);
        if (scurr != null && snext != scurr) {
            if (scurrRunnable) {
                scurr.delayedRunqAdd = true;
            }
            returnBudget(scurr);
        }
        if (scurr != null) {
            scurr.yield = false;
        }
        if (snext != null) {
            if (snext != scurr) {
                rqd.remove(snext);
                snext.scheduled = true;
                snext.runStart = now;
            }
            if (rqd.idle.get(cpu)) {
                rqd.idle.clear(cpu);
                clearSmtIdle(rqd, cpu);
            }
            if (skipped[0] == 0 && snext.credit <= 0) {
                resetCredit(rqd, snext, now);
                balanceLoad(rqd, now);
            }
            snext.startTime = now;
            setTickledCpu(snext, -1);
            if (snext.vcpu.processor != cpu) {
                snext.credit += migrateCompensation;
                if (snext.onRunq) {
                    snext.rq.creditChanged(snext);
                }
                snext.vcpu.processor = cpu;
            }
            tickler.scheduled(cpu, rqd, snext);
            snext.lastDecision = Decision.reuse(snext.lastDecision, snext.vcpu,
                    runtime(rqd, snext, snext == scurr, prev, now));
            return snext.lastDecision;
        }
        if (!rqd.idle.get(cpu)) {
            rqd.idle.set(cpu);
            smtIdleMaskSet(cpu, rqd);
        }
        updateRunqLoad(rqd, 0, now);
        tickler.scheduled(cpu, rqd, null);
        return idleDecision;
    }

    /** The idle answer: up to 4.6 with the max timer, so the idle pCPU schedules again (XenVersion.credit2IdleTimer). */
    private final Decision idleDecision;

    /**
     * Model addition (not in credit2.c): a queued vCPU that was tickled for this pCPU but not
     * taken is released, and tickled again if an idle pCPU exists, so a pCPU that skipped it as
     * reserved does not stay idle beside it.
     */
    private void retickleUntaken(Credit2Runqueue rqd, int cpu, Credit2Vcpu snext, long now) {
        if (reservations[cpu] == 0 || (reservations[cpu] == 1 && snext != null && snext.tickledCpu == cpu)) {
            return;
        }
        List<Credit2Vcpu> again = retickleScratch; // runqTickle below never comes back here
        again.clear();
        for (int i = 0; i < rqd.queued(); i++) {
            Credit2Vcpu svc = rqd.queuedAt(i);
            if (svc.tickledCpu == cpu && svc != snext) {
                setTickledCpu(svc, -1);
                again.add(svc);
            }
        }
        if (!again.isEmpty() && hasIdleUntickled(rqd, cpu)) {
            // this pCPU just declined them: let an idle pCPU have them (busy ones are not preempted again)
            rqd.tickled.set(cpu);
            for (Credit2Vcpu svc : again) {
                runqTickle(svc, now);
            }
            rqd.tickled.clear(cpu);
        }
    }

    private final List<Credit2Vcpu> retickleScratch = new ArrayList<>();

    private static boolean hasIdleUntickled(Credit2Runqueue rqd, int except) {
        long[] idle = rqd.idle.words;
        long[] tickled = rqd.tickled.words;
        for (int w = 0; w < idle.length; w++) {
            long free = idle[w] & ~tickled[w];
            if (w == except >>> 6) {
                free &= ~(1L << except);
            }
            if (free != 0) {
                return true;
            }
        }
        return false;
    }

    /** smt_idle_mask_set: a core whose threads are all idle and untickled joins smt_idle. */
    private void smtIdleMaskSet(int cpu, Credit2Runqueue rqd) {
        // (siblings & active) & ~(idle & ~tickled) empty, word by word (no mask copies)
        long[] sib = siblings;
        int at = cpu * maskWords;
        long[] active = rqd.activeMask.words;
        long[] idle = rqd.idle.words;
        long[] tickled = rqd.tickled.words;
        for (int w = 0; w < maskWords; w++) {
            if ((sib[at + w] & active[w] & (~idle[w] | tickled[w])) != 0) {
                return;
            }
        }
        long[] smtIdle = rqd.smtIdle.words;
        for (int w = 0; w < maskWords; w++) {
            smtIdle[w] |= sib[at + w] & active[w];
        }
    }

    /** smt_idle &= ~siblings(cpu): cpu's core is no longer fully idle. */
    private void clearSmtIdle(Credit2Runqueue rqd, int cpu) {
        long[] smtIdle = rqd.smtIdle.words;
        int at = cpu * maskWords;
        for (int w = 0; w < maskWords; w++) {
            smtIdle[w] &= ~siblings[at + w];
        }
    }

    /**
     * runq_candidate: keep scurr within the rate limit (unless yielding); otherwise the first
     * queued vCPU allowed here, not reserved for another tickled pCPU, not resisted as a remote
     * pull, wins if it has more credit than scurr (or scurr yields) and has cap budget.
     */
    private Credit2Vcpu runqCandidate(Credit2Runqueue rqd, Credit2Vcpu scurr, boolean scurrRunnable, int cpu,
            long now, int[] skipped) {
        Credit2Vcpu snext = null;
        boolean yield = false;
        if (scurr != null) {
            yield = scurr.yield;
            if (!yield && ratelimit > 0 && scurrRunnable && now - scurr.runStart < ratelimit) {
                return scurr;
            }
            boolean softAffPreempt = false;
            Vcpu v = scurr.vcpu;
            if (scurrRunnable && version.softAffinity() && v.hasSoftAffinity()
                    && !(v.hardAffinity.get(cpu) && v.softAffinity.get(cpu))) {
                // soft & hard & idle & ~tickled not empty
                softAffPreempt = idleUntickledIn(rqd, v);
            }
            if (scurrRunnable && !softAffPreempt) {
                snext = scurr;
            }
        }
        long snextCredit = snext == null ? Long.MIN_VALUE / 4 : snext.credit;
        int i = 0;
        while (i < rqd.queued()) {
            Credit2Vcpu svc = rqd.queuedAt(i);
            if (!svc.allowedOn(cpu)) {
                skipped[0]++;
                i++;
                continue;
            }
            if (svc.tickledCpu != -1 && svc.tickledCpu != cpu && rqd.tickled.get(svc.tickledCpu)) {
                skipped[0]++;
                i++;
                continue;
            }
            if (svc.vcpu.processor != cpu && snextCredit + migrateResist > svc.credit) {
                skipped[0]++;
                i++;
                continue;
            }
            if (yield || svc.credit > snextCredit) {
                if (!capped(svc) || grabBudget(svc)) {
                    snext = svc;
                } else {
                    // unit_grab_budget failed: parked until the domain's budget is replenished
                    park(svc, now);
                    continue;
                }
            }
            break;
        }
        return snext;
    }

    /** An idle, untickled pCPU of rqd in v's soft and hard affinity. */
    private static boolean idleUntickledIn(Credit2Runqueue rqd, Vcpu v) {
        long[] idle = rqd.idle.words;
        long[] tickled = rqd.tickled.words;
        for (int w = 0; w < idle.length; w++) {
            for (long free = idle[w] & ~tickled[w]; free != 0; free &= free - 1) {
                int c = (w << 6) + Long.numberOfTrailingZeros(free);
                if (v.hardAffinity.get(c) && v.softAffinity.get(c)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** csched2_runtime: until credit falls to the next waiter's (or 0), capped by budget, in [min, max] and the rate limit. */
    private long runtime(Credit2Runqueue rqd, Credit2Vcpu snext, boolean continuing, Vcpu prev, long now) {
        long minTime = minTimer;
        if (ratelimit > 0) {
            long rl = ratelimit;
            if (continuing) {
                rl = ratelimit - (now - snext.runStart);
            }
            if (rl > minTime) {
                minTime = rl;
            }
        }
        long rtCredit = snext.credit;
        if (rqd.queued() > 0) {
            long swaitCredit = rqd.headCredit(); // runq_elem(runq->next)->credit
            if (swaitCredit > 0) {
                rtCredit = snext.credit - swaitCredit;
            }
        }
        long time = rtCredit > 0 ? c2t(rqd, rtCredit, snext) : 0;
        if (capped(snext)) {
            time = Math.min(time, snext.budget);
        }
        if (time < minTime) {
            time = minTime;
        } else if (time > maxTimer) {
            time = maxTimer;
        }
        return time;
    }

    @Override
    public void contextSaved(Vcpu prev) {
        // csched2_context_saved: re-queue (and tickle) if still runnable; a pending balancer
        // move (_VPF_migrating) goes to its target run queue instead.
        Credit2Vcpu svc = Credit2Vcpu.of(prev);
        if (svc == null) {
            return;
        }
        long now = ctx.now();
        svc.scheduled = false;
        boolean runnable = prev.state == VcpuState.RUNNABLE && !svc.parked;
        if (svc.migrateRqd != null) {
            Credit2Runqueue t = svc.migrateRqd;
            svc.delayedRunqAdd = false;
            if (runnable) {
                int cpu = pickCpu(prev);
                svc.migrateRqd = null;
                moveTo(svc, t, cpu, now);
                if (!svc.onRunq) {
                    setLoaded(svc, true, now);
                    t.insert(svc);
                    runqTickle(svc, now);
                }
            } else {
                svc.migrateRqd = null;
                setLoaded(svc, false, now);
            }
            return;
        }
        boolean wanted = svc.delayedRunqAdd || (runnable && !svc.onRunq);
        svc.delayedRunqAdd = false;
        if (runnable && wanted && !svc.onRunq) {
            requeue(svc, now);
        } else if (!runnable) {
            setLoaded(svc, false, now);
        }
    }

    /** Put a runnable, descheduled vCPU back on a run queue it may run from, and tickle. */
    private void requeue(Credit2Vcpu svc, long now) {
        Vcpu v = svc.vcpu;
        if (!svc.reaches(svc.rq)) {
            setLoaded(svc, false, now);
            v.processor = pickCpu(v);
            wake(v);
            return;
        }
        if (!svc.allowedOn(v.processor)) {
            v.processor = pickInHard(v, svc.rq);
        }
        setLoaded(svc, true, now);
        svc.rq.insert(svc);
        runqTickle(svc, now);
    }

    // ---------------------------------------------------------------- balancing

    /** balance_load for the run queue of the pCPU that just reset credits. */
    private void balanceLoad(Credit2Runqueue lrqd, long now) {
        if (rqs.size() < 2) {
            return;
        }
        for (Credit2Runqueue rqd : rqs) {
            updateRunqLoad(rqd, 0, now);
        }
        Credit2Runqueue other = null;
        double maxDelta = 0;
        for (Credit2Runqueue o : rqs) {
            if (o != lrqd && Math.abs(lrqd.avgload - o.avgload) > maxDelta) {
                maxDelta = Math.abs(lrqd.avgload - o.avgload);
                other = o;
            }
        }
        if (other == null) {
            return;
        }
        for (Credit2Vcpu s : lrqd.svcs) {
            updateSvcLoad(s, now);
        }
        for (Credit2Vcpu s : other.svcs) {
            updateSvcLoad(s, now);
        }
        LoadBalancer.Move move = balancer.decide(lrqd, rqs);
        if (move == null) {
            return;
        }
        balances++;
        if (move.push() != null) {
            move.push().balanceMoves++;
            balanceMoves++;
            migrate(move.push(), move.other(), now);
        }
        if (move.pull() != null) {
            move.pull().balanceMoves++;
            balanceMoves++;
            migrate(move.pull(), lrqd, now);
        }
    }

    private long balances;
    private long balanceMoves;
    private long tickles;

    /** migrate(): a running vCPU is marked to move once descheduled; others move now. */
    private void migrate(Credit2Vcpu svc, Credit2Runqueue trqd, long now) {
        Vcpu v = svc.vcpu;
        if (svc.scheduled || (topo.pcpu(v.processor).current == v && v.state == VcpuState.RUNNING)) {
            svc.migrateRqd = trqd;
            ctx.tickle(v.processor);
            return;
        }
        moveTo(svc, trqd, pickInHard(v, trqd), now);
    }

    // ---------------------------------------------------------------- tickling

    /** svc->tickled_cpu, with a per-pCPU count of reservations so declined ones are found cheaply. */
    private void setTickledCpu(Credit2Vcpu svc, int cpu) {
        if (svc.tickledCpu >= 0) {
            reservations[svc.tickledCpu]--;
        }
        svc.tickledCpu = cpu;
        if (cpu >= 0) {
            reservations[cpu]++;
        }
    }

    private void tickleCpu(int cpu, Credit2Runqueue rqd) {
        rqd.tickled.set(cpu);
        ctx.tickle(cpu);
    }

    /** runq_tickle, in the form of the modelled release. */
    private void runqTickle(Credit2Vcpu snew, long now) {
        int ipid = tickler.choose(snew, rqOfCpu[snew.vcpu.processor], now);
        if (ipid >= 0) {
            snew.tickles++;
            tickles++;
            setTickledCpu(snew, ipid);
            Credit2Runqueue rqd = rqOfCpu[ipid];
            rqd.tickled.set(ipid);
            clearSmtIdle(rqd, ipid);
            ctx.tickle(ipid);
        }
    }

    /** Credit of what runs on cpu, burned up to now (idle: CSCHED2_IDLE_CREDIT). */
    private long currentCredit(int cpu, long now) {
        Vcpu cur = topo.pcpu(cpu).current;
        return runningCredit(cur == null || !(cur.policyData instanceof Credit2Vcpu c) ? null : c, now);
    }

    /** {@link #currentCredit} for the running vCPU's state (null: idle). */
    private long runningCredit(Credit2Vcpu c, long now) {
        if (c == null || c.rq == null) {
            return Tickler.IDLE_CREDIT;
        }
        burnCredits(c, now);
        return c.credit;
    }

    // ---------------------------------------------------------------- introspection

    @Override
    public int lockDomain(Pcpu p) {
        return rqOfCpu[p.id].id; // one lock per run queue
    }

    @Override
    public int runqueueOf(Pcpu p) {
        return rqOfCpu[p.id].id;
    }

    @Override
    public int runqueueCount() {
        return rqs.size();
    }

    @Override
    public boolean workConserving() {
        // Capped domains park vCPUs that stay runnable in the model's sense; without caps an idle
        // pCPU is left beside a waiting vCPU only as long as the balancing below allows.
        return !capsSeen;
    }

    /**
     * Several run queues: balance_load acts on load averages, not on single waits, so a vCPU taking short
     * turns on a busy queue while another queue's pCPU idles must be moved (or joined) within the bound too.
     */
    @Override
    public boolean boundsWaitsPerPlacement() {
        return rqs.size() > 1;
    }

    /**
     * The longest a vCPU may wait beside an idle allowed pCPU. One run queue: its idle pCPUs are
     * tickled at once, so the bound is one time slice (CSCHED2_MAX_TIMER). Several run queues: work
     * moves between them only by balance_load, at a credit reset, once the load averages differ by the
     * tolerance (2^0 = 1 vCPU under 100% load; sched_credit2.c RELEASE-4.6.0: balance_load is called only
     * from csched2_schedule, after reset_credit, on a pCPU whose next vCPU has no credit left, so an idle
     * queue never pulls and the busy queue pushes). A waiting vCPU beside an idle pCPU of another queue of
     * the same size means a true difference of at least 2 vCPUs; an average that starts at the
     * opposite imbalance (-2) crosses +1 after window x ln 4 (~1.39 windows: d(t) = 2 - 4 e^(-t/W)).
     * The bound is two load windows (credit2.c opt_load_window_shift of the modelled release) plus
     * four slices for the busy queue's next reset and the tickle of the moved vCPU.
     */
    @Override
    public long balancePeriodNanos() {
        if (rqs.size() < 2) {
            return maxTimer;
        }
        return 2 * (1L << params.effectiveLoadWindowShift()) + 4 * maxTimer;
    }

    /** Credit of a vCPU in ns (tests, traces). */
    public static long creditOf(Vcpu v) {
        return Credit2Vcpu.of(v).credit;
    }

    /** Run queue a vCPU is assigned to. */
    public static int runqueueOfVcpu(Vcpu v) {
        Credit2Runqueue rq = Credit2Vcpu.of(v).rq;
        return rq == null ? -1 : rq.id;
    }

    /** Load average of a run queue (in vCPUs). */
    public double runqueueLoad(int rq) {
        return rqs.get(rq).avgload;
    }

    @Override
    public Map<String, Long> statistics() {
        return Map.of(STAT_RESETS, resets, STAT_BALANCES, balances, STAT_BALANCE_MOVES, balanceMoves, STAT_TICKLES,
                tickles);
    }

    @Override
    public Map<String, Long> statistics(Vcpu v) {
        Credit2Vcpu svc = (Credit2Vcpu) v.policyData;
        return svc == null ? Map.of() : Map.of(STAT_BALANCE_MOVES, svc.balanceMoves, STAT_TICKLES, svc.tickles);
    }

    public long resetCount() {
        return resets;
    }

    public long balanceCount() {
        return balances;
    }

    /** True when caps are ignored because the modelled release predates them (4.10). */
    public boolean capsIgnored() {
        return !version.caps();
    }
}

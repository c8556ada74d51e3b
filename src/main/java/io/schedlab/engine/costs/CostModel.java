package io.schedlab.engine.costs;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.List;
import java.util.Map;

/**
 * Every time cost and progress-rate factor the simulator charges, as plain numbers. Each constant is
 * a parameter (spec field {@code costs}) with a documented default and the source of that default
 * (see {@link #parameters()}); items the public record does not confirm are marked UNVERIFIED and
 * are calibration knobs, as {@code docs/scheduler-facts.md} asks.
 */
public record CostModel(
        long contextSwitchNanos,
        long tlbFlushNanos,
        long decisionBaseNanos,
        long lockHoldPerSharerNanos,
        long contextSavedNanos,
        long ipiLatencyNanos,
        long guestSliceNanos,
        double smtFactor,
        double streamBandwidthMBps,
        long coldCacheWorkingSetKb,
        double llcRefillMBps,
        double memoryRefillMBps,
        double refillProgressFraction,
        long rendezvousNanos,
        double l1BandwidthMBps,
        double l2BandwidthMBps,
        double llcBandwidthMBps,
        long lockBaseNanos,
        long lockPerEntryNanos,
        double interconnectMBps) {

    /** The cost parameters with defaults, bounds and sources. */
    public static List<ParameterSpec> parameters() {
        return PARAMETERS;
    }

    /** Cost model from normalized {@code costs} values (every parameter present). */
    public static CostModel from(Map<String, Object> costs) {
        Params p = new Params(costs);
        return new CostModel(
                p.getLong("contextSwitchNanos"),
                p.getLong("tlbFlushNanos"),
                p.getLong("decisionBaseNanos"),
                p.getLong("lockHoldPerSharerNanos"),
                p.getLong("contextSavedNanos"),
                p.getLong("ipiLatencyNanos"),
                p.getLong("guestSliceUs") * 1_000L,
                p.getDouble("smtFactor"),
                p.getDouble("streamBandwidthMBps"),
                p.getLong("coldCacheWorkingSetKb"),
                p.getDouble("llcRefillMBps"),
                p.getDouble("memoryRefillMBps"),
                p.getDouble("refillProgressFraction"),
                p.getLong("rendezvousNanos"),
                p.getDouble("l1BandwidthMBps"),
                p.getDouble("l2BandwidthMBps"),
                p.getDouble("llcBandwidthMBps"),
                p.getLong("lockBaseNanos"),
                p.getLong("lockPerEntryNanos"),
                p.getDouble("interconnectMBps"));
    }

    /** Lock hold time of one scheduling decision when {@code sharers} pCPUs share the scheduler lock. */
    public long decisionHoldNanos(int sharers) {
        return decisionBaseNanos + lockHoldPerSharerNanos * Math.max(0, sharers - 1);
    }

    private static final List<ParameterSpec> PARAMETERS = List.of(
            ParameterSpec.integer("contextSwitchNanos", 1_200, 0, 1_000_000, "ns",
                    "Cost of a vCPU context switch (prev != next), charged as pCPU overhead.",
                    "seed 000 (Xen 4.1, i7): ~2 us worst case incl. TLB flush; Denali (OSDI'02) 1.4 us best case"),
            ParameterSpec.integer("tlbFlushNanos", 800, 0, 1_000_000, "ns",
                    "Extra cost of switching from idle to a vCPU that last ran on another pCPU (TLB flush).",
                    "seed 000: the ~2 us worst case is idle -> busy vCPU last run elsewhere, with tlb_flush"),
            ParameterSpec.integer("decisionBaseNanos", 300, 0, 1_000_000, "ns",
                    "Lock hold time of one do_schedule (lock + pick + unlock) with an uncontended private lock.",
                    "UNVERIFIED calibration knob; seed 000 measures it (xentrace CDFs) but gives no number"),
            ParameterSpec.integer("lockHoldPerSharerNanos", 25, 0, 1_000_000, "ns",
                    "Extra hold time per additional pCPU sharing the scheduler lock (queue length, cache-line bouncing).",
                    "UNVERIFIED calibration knob; seed 000 (global queue behind one spinlock)"),
            ParameterSpec.integer("contextSavedNanos", 200, 0, 1_000_000, "ns",
                    "Hold time of context_saved (re-queue prev) under its run-queue lock.",
                    "UNVERIFIED calibration knob; xen/common/sched/core.c sched_context_switched -> context_saved"),
            ParameterSpec.integer("ipiLatencyNanos", 1_000, 0, 1_000_000, "ns",
                    "Delay between a tickle (raise SCHEDULE_SOFTIRQ via IPI) and the target pCPU's schedule().",
                    "UNVERIFIED calibration knob; typical x86 IPI delivery is ~1 us"),
            ParameterSpec.integer("guestSliceUs", 4_000, 100, 1_000_000, "us",
                    "Guest kernel time slice when a VM has more runnable threads than vCPUs.",
                    "Linux CFS kernel/sched/fair.c: sched_latency 6 ms x (1+ilog2(ncpus)) / nr_running,"
                            + " >= min_granularity 0.75 ms; ~4 ms for a few runnable tasks"),
            ParameterSpec.number("smtFactor", 0.6, 0.05, 1.0, "fraction",
                    "Progress rate of a thread whose SMT sibling hardware thread is busy.",
                    "VMware docs: a thread on a busy hyperthreaded core gets slightly more than half its solo"
                            + " throughput; SMT adds up to ~30% total"),
            ParameterSpec.number("streamBandwidthMBps", 5_000, 1, 1_000_000, "MB/s",
                    "Memory bandwidth one streaming thread demands at full speed (node bandwidth is shared beyond it).",
                    "UNVERIFIED calibration knob (single-core STREAM class figure)"),
            ParameterSpec.integer("coldCacheWorkingSetKb", 2_048, 0, 1_048_576, "KiB",
                    "Working set of a vCPU: what it leaves in (and must refill into) a core's L2 and a socket's LLC,"
                            + " each capped at the cache's size (LRU stack model); a set larger than a cache owes it"
                            + " only its reload transient's extra misses (see CacheModel).",
                    "calibration knob, UNVERIFIED: no source gives a guest's working set; 2 MiB = a few L2s of"
                            + " kernel + user hot data"),
            ParameterSpec.number("llcRefillMBps", 4_069, 1, 1_000_000, "MB/s",
                    "Refill rate from the socket's LLC into a core's L2 (lines lost from the L2 only).",
                    "derived: one 64-byte line per ~15 ns LLC hit (~40 cycles at ~2.7 GHz, Intel optimization"
                            + " manual, Nehalem L3 latency), misses not overlapped; calibration knob"),
            ParameterSpec.number("memoryRefillMBps", 10_000, 1, 1_000_000, "MB/s",
                    "Refill rate from memory (lines the LLC lost): a resuming program's demand misses; at most"
                            + " the NUMA node's bandwidth (host.numaNodes[].bandwidthMBps).",
                    "calibrated to the measured cost of a context switch whose data set exceeds the caches: up to"
                            + " ~200 us (EWiLi'15, scheduler-facts.md), i.e. a 2 MiB working set in ~0.2 ms, misses"
                            + " overlapped as out-of-order cores and prefetchers do; calibration knob (one miss per"
                            + " ~100 ns without overlap, Drepper 2007 s. 3.3, would be 610 MB/s and makes a vCPU"
                            + " preempted every millisecond never finish its refill)"),
            ParameterSpec.number("refillProgressFraction", 0.5, 0, 0.9, "fraction",
                    "Share of full speed a thread keeps while its cache refill is served (an out-of-order core runs"
                            + " independent instructions while its misses are outstanding: memory-level parallelism);"
                            + " the refill stretches to refill / (1 - fraction), so a run longer than that still"
                            + " loses exactly the refill time, and 0 stalls the thread until the refill is done.",
                    "calibration knob: no source gives the share. Out-of-order cores overlap misses with"
                            + " independent work (Chou, Fahs, Abraham, ISCA 2004: out-of-order issue raises MLP"
                            + " 12-30% over in-order) until the reorder buffer fills (Karkhanis, Smith, ISCA 2004,"
                            + " first-order superscalar model), so the share lies between 0 (in-order stall) and 1;"
                            + " 0.5 is the midpoint. At 0 a vCPU switched more often than its refill takes never"
                            + " progresses (E4's overcommitted kernbench livelocks, docs/benchmarks.md)"),
            ParameterSpec.number("l1BandwidthMBps", 44_700, 1, 1_000_000, "MB/s",
                    "Rate of one thread moving data that fits its core's L1 (sequential loads/stores).",
                    "derived: one 16-byte store per cycle at 2.93 GHz (Xeon X5570; Intel optimization manual,"
                            + " Nehalem: one store port) = 46.9 GB/s"),
            ParameterSpec.number("l2BandwidthMBps", 20_000, 1, 1_000_000, "MB/s",
                    "Rate of one thread moving data that fits its core's L2 but not its L1.",
                    "calibration knob, UNVERIFIED (about half of the L1 rate)"),
            ParameterSpec.number("llcBandwidthMBps", 12_000, 1, 1_000_000, "MB/s",
                    "Rate of one thread moving data that fits its socket's LLC but not its L2.",
                    "calibration knob, UNVERIFIED (between the L2 rate and one thread's DRAM stream)"),
            ParameterSpec.integer("rendezvousNanos", 1_000, 0, 1_000_000, "ns",
                    "Core scheduling (schedGran core|socket): wait of every sibling pCPU in the rendezvous of one"
                            + " decision on its scheduling resource, charged as overhead.",
                    "UNVERIFIED calibration knob: one IPI, as the siblings are called by SCHED_SLAVE_SOFTIRQ"
                            + " (xen/common/sched/core.c schedule, sched_wait_rendezvous_in)"),
            ParameterSpec.integer("lockBaseNanos", 200, 0, 1_000_000, "ns",
                    "Hold time of a wake-up or a policy timer (e.g. RTDS replenishment) under the scheduler lock, "
                            + "before the per-entry work; policies that report their lock work only.",
                    "UNVERIFIED calibration knob (same order as contextSavedNanos)"),
            ParameterSpec.integer("lockPerEntryNanos", 20, 0, 1_000_000, "ns",
                    "Extra hold time per queue entry a policy walks or inserts under the lock (policies that "
                            + "report their lock work: rtds, sedf, gedf; credit and credit2 keep the per-sharer charge).",
                    "UNVERIFIED calibration knob: one list step touching a cache line another pCPU wrote"
                            + " (an LLC hit, ~20 ns)"),
            ParameterSpec.number("interconnectMBps", 0, 0, 1_000_000, "MB/s",
                    "Bandwidth of the links between NUMA nodes, per node: the remote part of striped memory streams"
                            + " (a VM's memoryPlacement striped) and the streams of node-local memory running on"
                            + " another node cross nodes x this, each waiting behind the others' demand (remote"
                            + " latency x (1 + others' demand / bandwidth)) and all together carrying at most the"
                            + " bandwidth; 0 = the links are no limit.",
                    "model default 0 (no limit, as before striping existed); Xen 22b984ae9a41's lmbench rd figures"
                            + " show striped guests together reaching about half the bandwidth node-local ones do."
                            + " The wait: M/M/1 response time R0 / (1 - rho) (Kleinrock, Queueing Systems vol. 1,"
                            + " 1975) with the carried load falling as latency grows (Little's law, 1961), so"
                            + " R = R0 (1 + offered load), the others' load only (arrival theorem: Lavenberg and"
                            + " Reiser 1980); sim.InterconnectLoad"));
}

package io.schedlab.engine.scenarios;

import static io.schedlab.engine.scenarios.Specs.experiment;
import static io.schedlab.engine.scenarios.Specs.host;
import static io.schedlab.engine.scenarios.Specs.policy;
import static io.schedlab.engine.scenarios.Specs.range;
import static io.schedlab.engine.scenarios.Specs.vm;
import static io.schedlab.engine.scenarios.Specs.workload;

import io.schedlab.engine.scenarios.ScenarioTable.RatioReference;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The published experiments of /work/shared/docs/experiments.md (E1..E5) as built-in sweeps. Each
 * mirrors the set-up of its source (seeds 000, 001, 004 and the E3/E4 set-ups); {@code quick} scales
 * the work down (about 1/10) and uses one repeat, for tests and a first look. Published numbers are
 * quoted from the seed posts.
 */
public final class BuiltInScenarios {

    /** Ids in order. */
    public static final List<String> IDS = List.of("E1", "E2", "E3", "E4", "E5");

    private BuiltInScenarios() {
    }

    public static List<Scenario> all(boolean quick) {
        return List.of(e1(quick), e2(quick), e3(quick), e4(quick), e5(quick));
    }

    public static Optional<Scenario> byId(String id, boolean quick) {
        return switch (id.toUpperCase(Locale.ROOT)) {
            case "E1" -> Optional.of(e1(quick));
            case "E2" -> Optional.of(e2(quick));
            case "E3" -> Optional.of(e3(quick));
            case "E4" -> Optional.of(e4(quick));
            case "E5" -> Optional.of(e5(quick));
            default -> Optional.empty();
        };
    }

    // ---------------------------------------------------------------- E1 (seed 000)

    /** Policy name the next issue registers for seed 000's global EDF (sEDF with one global queue and lock). */
    static final String GEDF = "gedf";
    static final List<String> E1_ROWS = List.of("scheduling decision", "context switch (prev != next)",
            "context_saved (re-queue prev)");
    static final List<String> E1_DISTRIBUTIONS = List.of("decision", "contextSwitch", "contextSaved");
    static final List<String> E1_COLUMNS = List.of("p50", "p90", "p99", "max");

    static Scenario e1(boolean quick) {
        double seconds = quick ? 1 : 10;
        HostSpec host = host(1, 6, 1);
        List<VmSpec> vms = List.of(
                Specs.withHard(vm("dom0", 1, workload("idle")), List.of(0)),
                Specs.withHard(vm("guest", 5, workload("cpu-loop", "threads", 5, "workSeconds", 0)), range(1, 6)));
        List<ExperimentSpec> specs = List.of(
                experiment("E1 gEDF", 0, StopCondition.DURATION, seconds, host, policy(GEDF), vms, null),
                experiment("E1 credit2 all", 0, StopCondition.DURATION, seconds, host,
                        policy("credit2", "runqueue", "all"), vms, null),
                experiment("E1 credit", 0, StopCondition.DURATION, seconds, host, policy("credit"), vms, null));
        List<String> policies = List.of("gEDF (seed 000)", "credit2 runqueue=all (stand-in)", "credit (contrast)");
        List<ScenarioTable> tables = new ArrayList<>();
        tables.add(e1Table("global EDF (sEDF with one global run queue behind one spinlock), as in seed 000",
                specs.get(0), null, true));
        tables.add(e1Table("stand-in: credit2 with runqueue=all (one global run queue behind one lock)",
                specs.get(1), "credit2 runqueue=all stands in for gEDF (same single queue and lock, different pick rule)",
                false));
        tables.add(e1Table("contrast: credit (one run queue and lock per pCPU)", specs.get(2), null, false));
        List<ScenarioRun> costRuns = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            String row = policies.get(i);
            costRuns.add(new ScenarioRun(specs.get(i).name(), specs.get(i), 1, List.of(
                    new Measure(row, "migrations", Extractors.migrations("total"), null),
                    new Measure(row, "overhead % of pCPU time", Extractors.overheadPercent(), null),
                    new Measure(row, "guest work rate (ideal 5)", Extractors.vmHeadline("guest"), null)), null));
        }
        tables.add(new ScenarioTable("raw switch cost vs migration cost: scheduler overhead is the switch/decision "
                + "time; what the guest loses beyond it (5 - work rate - overhead) is cold caches after migrations",
                "policy", policies, List.of("migrations", "overhead % of pCPU time", "guest work rate (ideal 5)"),
                costRuns, null));
        return new Scenario("E1", "scheduling and context-switch overhead under global EDF (seed 000)",
                List.of("Host: 1 socket x 6 cores, SMT off; dom0 1 vCPU pinned to pCPU 0;",
                        "guest: 5 vCPUs allowed on pCPUs 1-5 running 5 busy loops; " + fmt(seconds) + " s.",
                        "Published: worst context switch ~2 us (idle -> busy vCPU last run elsewhere, TLB flush)."),
                "decision time grows with the lock's contention on a global queue; the worst context switch is "
                        + "the idle->busy one with a TLB flush, ~2 us, and is separate from the cold-cache "
                        + "slowdown after a migration",
                tables);
    }

    private static ScenarioTable e1Table(String caption, ExperimentSpec spec, String note, boolean withPublished) {
        List<Measure> measures = new ArrayList<>();
        for (int r = 0; r < E1_ROWS.size(); r++) {
            for (String stat : E1_COLUMNS) {
                Double published = withPublished && r == 1 && stat.equals("max") ? 2.0 : null;
                measures.add(new Measure(E1_ROWS.get(r), stat,
                        Extractors.distribution(E1_DISTRIBUTIONS.get(r), stat, 1e-3), published));
            }
        }
        return new ScenarioTable(caption + "; time in us", "distribution", E1_ROWS, E1_COLUMNS,
                List.of(new ScenarioRun(spec.name(), spec, 1, measures, note)), null);
    }

    // ---------------------------------------------------------------- E2 (seed 001)

    static final String E2_PINNED = "static + vcpu-pin VM1 0 0";

    static Scenario e2(boolean quick) {
        double work = quick ? 9.6 : 96;
        double limit = quick ? 60 : 600;
        HostSpec host = host(1, 2, 1);
        List<VmSpec> vms = List.of(
                Specs.withPlacement(vm("dom0", 2, workload("idle")), List.of(0, 1)),
                Specs.withPlacement(vm("VM1", 1, workload("cpu-loop", "threads", 1, "workSeconds", work)), List.of(1)),
                Specs.withPlacement(vm("VM3", 1, workload("cpu-loop", "threads", 1, "workSeconds", work)), List.of(1)));
        List<String> rows = List.of("static, both on pCPU 1", E2_PINNED, "credit", "credit2");
        List<ScenarioRun> runs = new ArrayList<>();
        runs.add(e2Run(rows.get(0), experiment("E2 static", 1, StopCondition.ALL_COMPLETE, limit, host,
                policy("static"), vms, null), quick ? null : 220.0));
        runs.add(e2Run(rows.get(1), experiment("E2 static pinned", 1, StopCondition.ALL_COMPLETE, limit, host,
                policy("static"), vms, List.of(Specs.pin(0, "VM1", 0, List.of(0)))), quick ? null : 96.0));
        runs.add(e2Run(rows.get(2), experiment("E2 credit", 1, StopCondition.ALL_COMPLETE, limit, host,
                policy("credit"), vms, null), null));
        runs.add(e2Run(rows.get(3), experiment("E2 credit2", 1, StopCondition.ALL_COMPLETE, limit, host,
                policy("credit2"), vms, null), null));
        ScenarioTable table = new ScenarioTable(
                "CPU-loop exec time per VM, seconds (lower is better)" + (quick ? " [quick: 1/10 work, no published]" : ""),
                "configuration", rows, List.of("VM1", "VM3"), runs, RatioReference.row(E2_PINNED));
        return new Scenario("E2", "no automatic rebalance vs rebalance (seed 001)",
                List.of("Host: 2 pCPUs. dom0 2 vCPUs, mostly idle; VM1 and VM3 1 vCPU each, both placed on pCPU 1.",
                        "Work: the same CPU loop (" + fmt(work) + " s of CPU) in VM1 and VM3, started together.",
                        "Published: 3 min 40 s each while sharing pCPU 1; 1 min 36 s after xm vcpu-pin VM1 0 0 (2.3x)."),
                "static placement ~2x slower than pinned; credit's work stealing and credit2's balancer "
                        + "remove the gap by themselves",
                List.of(table));
    }

    private static ScenarioRun e2Run(String row, ExperimentSpec spec, Double published) {
        return new ScenarioRun(row, spec, 1, List.of(
                new Measure(row, "VM1", Extractors.vmHeadline("VM1"), published),
                new Measure(row, "VM3", Extractors.vmHeadline("VM3"), published)), null);
    }

    // ---------------------------------------------------------------- E3 (held out: set-up only)

    static final List<String> E3_COLUMNS = List.of("no affinity", "pinning (hard)", "NUMA-aware (soft)");

    static Scenario e3(boolean quick) {
        double seconds = quick ? 1 : 10;
        int repeats = quick ? 1 : 3;
        HostSpec host = Specs.numaHost(2, 4, 1, 8192);
        List<Integer> counts = List.of(2, 6, 10);
        List<String> rows = counts.stream().map(n -> n + " guests").toList();
        List<ScenarioRun> runs = new ArrayList<>();
        for (int i = 0; i < counts.size(); i++) {
            int n = counts.get(i);
            for (int mode = 0; mode < 3; mode++) {
                List<VmSpec> vms = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (int g = 0; g < n; g++) {
                    int node = g % 2;
                    List<Integer> nodeCpus = range(node * 4, node * 4 + 4);
                    VmSpec v = Specs.withMemory(vm("guest" + (g + 1), 2,
                            workload("memory-bandwidth", "threads", 4)), 1024, node);
                    v = switch (mode) {
                        case 1 -> Specs.withHard(v, nodeCpus);
                        case 2 -> Specs.withSoft(v, nodeCpus);
                        default -> v;
                    };
                    vms.add(v);
                    names.add(v.name());
                }
                String label = rows.get(i) + ", " + E3_COLUMNS.get(mode);
                ExperimentSpec spec = experiment("E3 " + label, 3, StopCondition.DURATION, seconds, host,
                        policy("credit2"), vms, null);
                runs.add(new ScenarioRun(label, spec, repeats, List.of(new Measure(rows.get(i), E3_COLUMNS.get(mode),
                        Extractors.meanHeadline(names), null)), null));
            }
        }
        ScenarioTable table = new ScenarioTable("sysbench memory throughput, MB/s per guest (mean over guests, "
                + repeats + " run(s); higher is better)", "guests", rows, E3_COLUMNS, runs,
                RatioReference.column("no affinity"));
        List<ScenarioRun> auditRuns = new ArrayList<>();
        List<String> auditRows = List.of("credit2", "credit");
        for (String policyName : auditRows) {
            ExperimentSpec spec = Specs.withTrace(experiment("E3 affinity audit " + policyName, 3, StopCondition.DURATION,
                    seconds, host, policy(policyName), e3PinnedGuests(6), e3PinScript(6, seconds)), 10_000_000L);
            auditRuns.add(new ScenarioRun("affinity audit, " + policyName, spec, 1, List.of(
                    new Measure(policyName, "switch-ins checked",
                            Extractors.at("/" + ScenarioRunner.AUDIT_FIELD + "/checked", 1), null),
                    new Measure(policyName, "violations",
                            Extractors.at("/" + ScenarioRunner.AUDIT_FIELD + "/violations", 1), null)), null));
        }
        ScenarioTable audit = new ScenarioTable("hard affinity audit: 6 pinned guests; at 1/3 of the run every guest "
                + "is re-pinned to the other node, at 2/3 each guest's vCPU 0 to one pCPU; every switch-in checked "
                + "against the affinity in force (expected: 0 violations)", "policy", auditRows,
                List.of("switch-ins checked", "violations"), auditRuns, null);
        return new Scenario("E3", "credit2 with hard and soft affinity on a NUMA host (set-up only, no published numbers)",
                List.of("Host: 2 sockets x 4 cores, 2 NUMA nodes x 8 GB. Guests: 2 vCPUs, 1 GB each, memory on node "
                        + "(guest index mod 2);", "2, 6, 10 guests at once, each sysbench memory with 4 threads, "
                        + fmt(seconds) + " s; pinning = hard affinity to the memory's node, NUMA-aware = soft affinity "
                        + "to it."),
                "NUMA-aware (soft) >= pinning > no affinity while guests fit; the advantage shrinks as guests "
                        + "overcommit the host (10 guests = 20 vCPUs on 8 pCPUs)",
                List.of(table, audit));
    }

    private static List<VmSpec> e3PinnedGuests(int n) {
        List<VmSpec> vms = new ArrayList<>();
        for (int g = 0; g < n; g++) {
            int node = g % 2;
            vms.add(Specs.withHard(Specs.withMemory(vm("guest" + (g + 1), 2, workload("memory-bandwidth", "threads", 4)),
                    1024, node), range(node * 4, node * 4 + 4)));
        }
        return vms;
    }

    /** The scripted vcpu-pin changes of the audit: all vCPUs to the other node at 1/3, vCPU 0 to one pCPU at 2/3. */
    private static List<io.schedlab.engine.spec.TimelineAction> e3PinScript(int n, double seconds) {
        List<io.schedlab.engine.spec.TimelineAction> script = new ArrayList<>();
        for (int g = 0; g < n; g++) {
            int other = 1 - g % 2;
            script.add(Specs.pin(seconds / 3, "guest" + (g + 1), null, range(other * 4, other * 4 + 4)));
        }
        for (int g = 0; g < n; g++) {
            int node = g % 2;
            script.add(Specs.pin(2 * seconds / 3, "guest" + (g + 1), 0, List.of(node * 4 + g % 4)));
        }
        return script;
    }

    // ---------------------------------------------------------------- E4 (held out: set-up only)

    /** Policy name the next issue registers for Linux CFS with KVM pause-loop exiting. */
    static final String CFS_PLE = "cfs-ple";
    static final List<String> E4_COLUMNS = List.of("base PLE", "patched PLE", "credit (no PLE, stand-in)");

    static Scenario e4(boolean quick) {
        double ebizzySeconds = quick ? 1 : 10;
        int repeats = quick ? 1 : 3;
        HostSpec host = host(2, 8, 2);
        List<String> rows = List.of("ebizzy 1x", "ebizzy 2x", "kernbench 1x", "kernbench 2x", "kernbench 3x");
        List<SchedulerSpec> policies = List.of(policy(CFS_PLE, "pleHandler", "base"),
                policy(CFS_PLE, "pleHandler", "patched"), policy("credit"));
        List<ScenarioRun> runs = new ArrayList<>();
        for (String row : rows) {
            boolean ebizzy = row.startsWith("ebizzy");
            int guests = Integer.parseInt(row.substring(row.length() - 2, row.length() - 1));
            List<VmSpec> vms = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (int g = 0; g < guests; g++) {
                WorkloadSpec w = ebizzy ? workload("spinlock", "threads", 0)
                        : workload("parallel-build", "parallelism", 64, "jobs", quick ? 400 : 2000,
                                "serialTailMs", quick ? 600.0 : 6000.0);
                VmSpec v = Specs.withMemory(vm("vm" + (g + 1), 32, w), 8192, g % 2);
                vms.add(v);
                names.add(v.name());
            }
            for (int c = 0; c < policies.size(); c++) {
                String label = row + ", " + E4_COLUMNS.get(c);
                ExperimentSpec spec = ebizzy
                        ? experiment("E4 " + label, 4, StopCondition.DURATION, ebizzySeconds, host, policies.get(c),
                                vms, null)
                        : experiment("E4 " + label, 4, StopCondition.ALL_COMPLETE, quick ? 120 : 600, host,
                                policies.get(c), vms, null);
                String note = c == 2 ? "credit has no pause-loop handling: its column shows the spinning cost "
                        + "that PLE attacks, not the E4 comparison" : null;
                runs.add(new ScenarioRun(label, spec, repeats,
                        List.of(new Measure(row, E4_COLUMNS.get(c), Extractors.meanHeadline(names), null)), note));
            }
        }
        ScenarioTable table = new ScenarioTable("ebizzy records/s (higher is better) and kernbench seconds (lower is "
                + "better), mean over guests, " + repeats + " run(s), +- = stddev; ratio - 1 = % improvement",
                "benchmark, load", rows, E4_COLUMNS, runs, RatioReference.column("base PLE"));
        return new Scenario("E4", "pause-loop exiting under KVM, undercommit vs overcommit (set-up only)",
                List.of("Host: 2 sockets x 8 cores x 2 threads (32 hardware threads), Linux CFS + KVM.",
                        "Guests of 32 vCPUs, 8 GB: 1x, 2x (and 3x for kernbench); ebizzy = spinlock workload, one "
                                + "thread per vCPU, " + fmt(ebizzySeconds) + " s; kernbench = parallel-build -j 64.",
                        "Compared: base PLE handler vs the 2012 patches (undercommit early return; schedule() when "
                                + "no yield succeeds in overcommit)."),
                "patched ~= base in undercommit for kernbench, better for ebizzy 1x (no futile yield scans); "
                        + "patched better in overcommit (2x, 3x)",
                List.of(table));
    }

    // ---------------------------------------------------------------- E5 (seed 004)

    static final List<Integer> E5_N = List.of(1, 2, 4, 6, 8);
    static final List<String> E5_COLUMNS = List.of("credit2 per-core", "credit2 per-socket", "credit");
    /** Seed 004, seconds, 4-vCPU guest: per core, per socket, credit; rows make -j 1, 2, 4, 6, 8. */
    static final double[][] E5_PUBLISHED_4 = {
        {82.183, 39.488, 26.568, 24.749, 24.835},
        {100.044, 49.912, 31.28, 29.058, 35.152},
        {87.466, 42.159, 26.922, 25.638, 25.619}};
    /** Seed 004, seconds, 8-vCPU guest. */
    static final double[][] E5_PUBLISHED_8 = {
        {95.075, 45.346, 28.775, 23.475, 21.887},
        {103.118, 51.412, 29.612, 24.112, 22.521},
        {90.104, 44.932, 27.168, 24.423, 22.109}};

    static Scenario e5(boolean quick) {
        List<SchedulerSpec> policies = List.of(policy("credit2", "xenVersion", "4.6", "runqueue", "core"),
                policy("credit2", "xenVersion", "4.6", "runqueue", "socket"), policy("credit"));
        List<ScenarioTable> tables = new ArrayList<>();
        for (int vcpus : List.of(4, 8)) {
            double[][] published = vcpus == 4 ? E5_PUBLISHED_4 : E5_PUBLISHED_8;
            List<String> rows = E5_N.stream().map(String::valueOf).toList();
            List<ScenarioRun> runs = new ArrayList<>();
            for (int c = 0; c < policies.size(); c++) {
                for (int i = 0; i < E5_N.size(); i++) {
                    int n = E5_N.get(i);
                    WorkloadSpec build = quick
                            ? workload("parallel-build", "parallelism", n, "jobs", 100, "serialTailMs", 600.0)
                            : workload("parallel-build", "parallelism", n);
                    String label = vcpus + " vCPUs, " + E5_COLUMNS.get(c) + ", make -j " + n;
                    ExperimentSpec spec = experiment("E5 " + label, 4, StopCondition.ALL_COMPLETE, quick ? 60 : 600,
                            host(1, 4, 2), policies.get(c), List.of(vm("guest", vcpus, build)), null);
                    runs.add(new ScenarioRun(label, spec, 1, List.of(new Measure(rows.get(i), E5_COLUMNS.get(c),
                            Extractors.vmHeadline("guest"), quick ? null : published[c][i])), null));
                }
            }
            tables.add(new ScenarioTable(vcpus + "-vCPU guest: make -j N elapsed seconds (lower is better)"
                    + (quick ? " [quick: 1/10 work, no published]" : ""), "make -j N", rows, E5_COLUMNS, runs,
                    RatioReference.column("credit2 per-core")));
        }
        return new Scenario("E5", "credit2 run queue per core vs per socket vs credit (seed 004)",
                List.of("Host: 1 socket x 4 cores x 2 hardware threads. One guest of 4, then 8 vCPUs;",
                        "work: parallel-build (make -j N, " + (quick ? "100 jobs, 0.6 s link" : "1000 jobs x 72 ms "
                                + "lognormal cv 1, 6 s link") + "), N = 1, 2, 4, 6, 8. credit2 as in Xen 4.6."),
                "per-socket slowest, most at low N and at N = 8 with 4 vCPUs; per-core ~ credit; time falls "
                        + "with N until the vCPUs or the cores run out",
                tables);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}

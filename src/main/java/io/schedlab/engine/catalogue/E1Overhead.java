package io.schedlab.engine.catalogue;

import static io.schedlab.engine.catalogue.Specs.experiment;
import static io.schedlab.engine.catalogue.Specs.host;
import static io.schedlab.engine.catalogue.Specs.policy;
import static io.schedlab.engine.catalogue.Specs.range;
import static io.schedlab.engine.catalogue.Specs.vm;
import static io.schedlab.engine.catalogue.Specs.workload;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.VmSpec;
import java.util.ArrayList;
import java.util.List;

/** E1: scheduling and context-switch overhead under global EDF (seed 000). */
final class E1Overhead {

    private E1Overhead() {
    }

    /** Policy name of seed 000's global EDF (sEDF with one global queue and lock). */
    static final String GEDF = "gedf";
    static final List<String> E1_ROWS = List.of("scheduling decision", "context switch (prev != next)",
            "context_saved (re-queue prev)");
    static final List<String> E1_DISTRIBUTIONS = List.of("decision", "contextSwitch", "contextSaved");
    static final List<String> E1_COLUMNS = List.of("p50", "p90", "p99", "max");

    static Scenario build(boolean quick) {
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
        tables.add(e1Table("variant (not the published set-up), gEDF: each loop pauses 1 ms every "
                + "10-13 ms, so pCPUs go idle and vCPUs move; the idle -> busy switch of a vCPU last run elsewhere "
                + "(TLB flush) is the published worst case", experiment("E1 gEDF, pausing loops", 0,
                        StopCondition.DURATION, seconds, host, policy(GEDF),
                        List.of(vms.get(0), Specs.withHard(vm("guest", 5, workload("trace", "csv", pausingLoops(5),
                                "loop", true)), range(1, 6))), null), null, false));
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
        tables.add(scalingTable(seconds));
        return new Scenario("E1", "scheduling and context-switch overhead under global EDF (seed 000)",
                List.of("Host: 1 socket x 6 cores, SMT off; dom0 1 vCPU pinned to pCPU 0;",
                        "guest: 5 vCPUs allowed on pCPUs 1-5 running 5 busy loops; " + Specs.fmt(seconds) + " s.",
                        "Published: worst context switch ~2 us (idle -> busy vCPU last run elsewhere, TLB flush)."),
                "decision time grows with the lock's contention on a global queue; the worst context switch is "
                        + "the idle->busy one with a TLB flush, ~2 us, and is separate from the cold-cache "
                        + "slowdown after a migration",
                tables);
    }

    /** Core counts of the scaling table: the published host, then the same set-up grown. */
    static final List<Integer> SCALED_CORES = List.of(6, 12, 24, 48);

    /**
     * The same set-up on 6, 12, 24 and 48 cores (dom0 on pCPU 0, one loop per other pCPU) under gEDF: more
     * pCPUs share the one lock, so lock waiting widens the decision and context_saved distributions.
     */
    private static ScenarioTable scalingTable(double seconds) {
        List<String> rows = new ArrayList<>();
        List<String> columns = List.of("decision p50", "decision p99", "decision max", "context_saved p50",
                "context_saved p99", "context_saved max");
        List<ScenarioRun> runs = new ArrayList<>();
        for (int cores : SCALED_CORES) {
            String row = cores + " cores";
            rows.add(row);
            List<VmSpec> vms = List.of(Specs.withHard(vm("dom0", 1, workload("idle")), List.of(0)),
                    Specs.withHard(vm("guest", cores - 1, workload("cpu-loop", "threads", cores - 1, "workSeconds", 0)),
                            range(1, cores)));
            ExperimentSpec spec = experiment("E1 gEDF " + cores + " cores", 0, StopCondition.DURATION, seconds,
                    host(1, cores, 1), policy(GEDF), vms, null);
            List<Measure> measures = new ArrayList<>();
            for (String column : columns) {
                String distribution = column.startsWith("decision") ? "decision" : "contextSaved";
                measures.add(new Measure(row, column, Extractors.distribution(distribution,
                        column.substring(column.indexOf(' ') + 1), 1e-3), null));
            }
            runs.add(new ScenarioRun(spec.name(), spec, 1, measures, null));
        }
        return new ScenarioTable("gEDF grown to 12, 24 and 48 cores (one loop per pCPU but dom0's): lock waiting on "
                + "the one global queue; time in us", "host", rows, columns, runs, null);
    }

    /**
     * Trace CSV: vCPU v runs 10 ms + 0.7 ms x v then sleeps 1 ms, forever: the pauses drift apart, so a waking
     * loop finds its own pCPU taken and moves to an idle one.
     */
    private static String pausingLoops(int vcpus) {
        StringBuilder csv = new StringBuilder("vcpu,run_us,sleep_us\n");
        for (int v = 0; v < vcpus; v++) {
            csv.append(v).append(',').append(10_000 + 700 * v).append(",1000\n");
        }
        return csv.toString();
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

}

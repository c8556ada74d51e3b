package io.schedlab.engine.catalogue;

import static io.schedlab.engine.catalogue.Specs.experiment;
import static io.schedlab.engine.catalogue.Specs.host;
import static io.schedlab.engine.catalogue.Specs.policy;
import static io.schedlab.engine.catalogue.Specs.workload;

import io.schedlab.engine.catalogue.ScenarioTable.RatioReference;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * V6: EEVDF's PREEMPT_SHORT (Linux 85e511df3cec, "sched/eevdf: Allow shorter slices to wakeup-preempt",
 * 2024): 5 massive_intr tasks at the default slice beside 5 cyclictest tasks that request a 500 us slice;
 * with PREEMPT_SHORT a waking cyclictest cancels the running massive_intr's RUN_TO_PARITY protection, so its
 * average delay falls (0.465 -> 0.372 ms, three runs each) and massive_intr is switched more (781k -> 840k).
 */
final class V6EevdfPreemptShort {

    static final List<String> COLUMNS = List.of("NO_PREEMPT_SHORT", "PREEMPT_SHORT");
    static final List<String> ROWS = List.of("cyclictest average delay (us)", "massive_intr switches per task");
    /** The commit message's three runs per column: cyclictest avg delay (ms) and massive_intr switches. */
    static final double[][] DELAY_RUNS_MS = {{0.471, 0.448, 0.475}, {0.373, 0.374, 0.370}};
    static final double[][] SWITCH_RUNS = {{779188, 792269, 771456}, {837384, 845086, 836883}};
    static final int TASKS = 5;
    /** massive_intr.c: WORK_MSECS 8 of CPU work, then SLEEP_MSECS 1 of nanosleep, in a loop. */
    static final int MASSIVE_WORK_US = 8000;
    static final int MASSIVE_SLEEP_US = 1000;
    /**
     * cyclictest (rt-tests src/cyclictest/cyclictest.c) defaults: DEFAULT_INTERVAL 1000 us, each further thread's
     * interval DEFAULT_DISTANCE 500 us longer, absolute clock_nanosleep timers.
     */
    static final int CYCLIC_INTERVAL_US = 1000;
    static final int CYCLIC_DISTANCE_US = 500;
    /** cyclictest's CPU time per switch in the source's table: 12.6 s over ~640k switches, ~20 us. */
    static final int CYCLIC_RUN_US = 20;
    /** The commit's request for cyclictest: a 500 us slice (sched_attr.sched_runtime). */
    static final int CYCLIC_SLICE_US = 500;
    /**
     * The host is not given. The table's CPU time, 846 s (massive_intr) + 12.6 s (cyclictest) + 53 s (chromium),
     * over the ~228 s that cyclictest's ~640k activations take at its default intervals (~2,900 per second), keeps
     * about 4 CPUs busy, and massive_intr alone asks for 5 x 8/9 = 4.4: a saturated 4-CPU host.
     */
    static final int CPUS = 4;
    /** chromium-browse in the table (means of the NO_PREEMPT_SHORT runs): 8 threads, 53.5 s CPU, ~133.8k switches. */
    static final int CHROMIUM_THREADS = 8;
    static final double CHROMIUM_CPU_SECONDS = 53.5;
    static final double CHROMIUM_SWITCHES = 133_800;
    /** The run's length implied above: CPU time over 4 busy CPUs, ~228 s. */
    static final double RUN_SECONDS = 228;

    private V6EevdfPreemptShort() {
    }

    static Scenario build(boolean quick) {
        double seconds = quick ? 4 : 12;
        List<ScenarioRun> runs = new ArrayList<>();
        for (int c = 0; c < COLUMNS.size(); c++) {
            boolean preemptShort = c == 1;
            String label = COLUMNS.get(c);
            runs.add(new ScenarioRun(label, experiment("V6 " + label, 1, StopCondition.DURATION, seconds,
                    host(1, CPUS, 1), policy("eevdf", "kernelVersion", "6.12", "preemptShort", preemptShort),
                    List.of(massiveIntr(), cyclictest(), chromium()), null), quick ? 1 : 3,
                    List.of(new Measure(ROWS.get(0), label, Extractors.vmMeanWakeLatency(1, 1e-3),
                                    mean(DELAY_RUNS_MS[c]) * 1000, c == 0 ? null : Bands.spread(
                                            min(DELAY_RUNS_MS[1]) / max(DELAY_RUNS_MS[0]) - 1,
                                            max(DELAY_RUNS_MS[1]) / min(DELAY_RUNS_MS[0]) - 1,
                                            "the commit's three runs per setting: 0.370-0.374 ms against"
                                                    + " 0.448-0.475 ms (85e511df3cec)")),
                            new Measure(ROWS.get(1), label, Extractors.vcpuStatisticMean(0, TASKS, "switchesIn"),
                                    mean(SWITCH_RUNS[c]) / TASKS)), null));
        }
        ScenarioTable table = new ScenarioTable("cyclictest average wake-up delay in us (lower is better) and"
                + " massive_intr switch-ins per task; pub: the commit's mean of three runs (switches over the whole"
                + " run, per task)" + (quick ? " [quick: " + Specs.fmt(seconds) + " s]" : ""), "figure", ROWS,
                COLUMNS, runs, RatioReference.column(COLUMNS.get(0)));
        return new Scenario("V6", "EEVDF: shorter slices may preempt on wake-up (Linux 85e511df3cec)",
                List.of("Host: 1 socket x " + CPUS + " cores, eevdf at kernelVersion 6.12, preemptShort off and on;"
                                + " " + Specs.fmt(seconds) + " s.",
                        "massive_intr: 5 threads of " + MASSIVE_WORK_US / 1000 + " ms CPU work and "
                                + MASSIVE_SLEEP_US / 1000 + " ms sleep (massive_intr.c), default slice (no request);"
                                + " cyclictest: 5 threads on absolute timers of " + CYCLIC_INTERVAL_US + ".."
                                + (CYCLIC_INTERVAL_US + (TASKS - 1) * CYCLIC_DISTANCE_US) + " us (cyclictest's"
                                + " default interval and distance), " + CYCLIC_RUN_US + " us of work each, sliceUs "
                                + CYCLIC_SLICE_US + "; each task set is a guest of 5 vCPUs, one thread per vCPU.",
                        "chromium beside them, as in the table: an interactive guest of " + CHROMIUM_THREADS
                                + " threads whose bursts and think times give the table's CPU time and switches"
                                + " (bursts ~" + Math.round(chromiumBurstUs()) + " us, think ~"
                                + Specs.fmt(Math.round(chromiumThinkMs() * 10) / 10.0) + " ms).",
                        "Not in the source: the host (4 CPUs from the table's CPU time, see V6EevdfPreemptShort.CPUS)"
                                + " and cyclictest's options (its defaults). The"
                                + " post's heading reads \"100ms massive_intr 500us cyclictest\"; this case follows"
                                + " the validation catalogue's reading, massive_intr at the default slice.",
                        "DELAY_DEQUEUE (6.12, on in both columns): a sleeper past V stays queued until it is picked"
                                + " or wakes; a deadline or did_preempt_short takes effect at the next tick or at a"
                                + " wake-up on that CPU."),
                "with PREEMPT_SHORT cyclictest's average delay about a fifth lower; massive_intr switched a few per"
                        + " cent more", List.of(table));
    }

    /** Mean CPU burst per chromium switch: its CPU time over its switches. */
    static double chromiumBurstUs() {
        return CHROMIUM_CPU_SECONDS / CHROMIUM_SWITCHES * 1e6;
    }

    /** Mean time between a chromium thread's bursts, less the burst: each thread's share of the switches. */
    static double chromiumThinkMs() {
        return RUN_SECONDS * CHROMIUM_THREADS / CHROMIUM_SWITCHES * 1e3 - chromiumBurstUs() / 1e3;
    }

    private static VmSpec chromium() {
        return guest("chromium", CHROMIUM_THREADS, workload("interactive", "threads", CHROMIUM_THREADS,
                "thinkMeanMs", chromiumThinkMs(), "burstMeanUs", chromiumBurstUs()), 0);
    }

    private static VmSpec massiveIntr() {
        Map<String, Object> task = new LinkedHashMap<>();
        task.put("instance", TASKS);
        task.put("loop", -1);
        task.put("run", MASSIVE_WORK_US);
        task.put("sleep", MASSIVE_SLEEP_US);
        return guest("massive_intr", TASKS, rtApp(Map.of("massive_intr", task)), 0);
    }

    private static VmSpec cyclictest() {
        Map<String, Object> tasks = new LinkedHashMap<>();
        for (int i = 0; i < TASKS; i++) {
            Map<String, Object> task = new LinkedHashMap<>();
            task.put("loop", -1);
            task.put("run", CYCLIC_RUN_US);
            task.put("timer", Map.of("ref", "unique", "period", CYCLIC_INTERVAL_US + i * CYCLIC_DISTANCE_US,
                    "mode", "absolute"));
            tasks.put("cyclictest" + i, task);
        }
        return guest("cyclictest", TASKS, rtApp(tasks), CYCLIC_SLICE_US);
    }

    private static WorkloadSpec rtApp(Map<String, Object> tasks) {
        return workload("rt-app", "json", Map.of("tasks", tasks));
    }

    private static VmSpec guest(String name, int vcpus, WorkloadSpec w, int sliceUs) {
        return new VmSpec(name, vcpus, null, null, null, null, null, null, null, null, null, w,
                sliceUs == 0 ? null : Map.of("sliceUs", sliceUs), null);
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    private static double min(double[] v) {
        double m = Double.MAX_VALUE;
        for (double x : v) {
            m = Math.min(m, x);
        }
        return m;
    }

    private static double max(double[] v) {
        double m = -Double.MAX_VALUE;
        for (double x : v) {
            m = Math.max(m, x);
        }
        return m;
    }
}

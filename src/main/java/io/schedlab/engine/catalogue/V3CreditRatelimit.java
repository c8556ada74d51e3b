package io.schedlab.engine.catalogue;

import static io.schedlab.engine.catalogue.Specs.experiment;
import static io.schedlab.engine.catalogue.Specs.host;
import static io.schedlab.engine.catalogue.Specs.policy;
import static io.schedlab.engine.catalogue.Specs.vm;
import static io.schedlab.engine.catalogue.Specs.workload;

import io.schedlab.engine.catalogue.ScenarioTable.RatioReference;
import io.schedlab.engine.spec.ExperimentSpec.StopCondition;
import io.schedlab.engine.spec.VmSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * V3: credit's rate limit (Xen 64908a046602, "sched_credit: Use delay to control scheduling
 * frequency", 2012-01-17): with a 1 ms minimum run before a wake-up may preempt, about 30% fewer
 * context switches at peak load. Its 10 ms statement ("no big difference between these two
 * configurations", beside the 11% SPECvirt gain) is about performance, not switches, so the 10 ms run's
 * switches carry no published figure. The source gives no host or
 * mix (SPECvirt's consolidated servers); the model's consolidated wake-up-heavy stand-in: one
 * socket of 4 cores, six guests of 2 vCPUs whose 4 request threads each wake every ~2 ms for
 * ~200 us bursts (the interactive workload's default burst), beside two CPU-bound guests.
 */
final class V3CreditRatelimit {

    /** Rate limits compared (us): off, Xen's default, ten times it. */
    static final List<Integer> LIMITS_US = List.of(0, 1000, 10_000);
    static final List<String> COLUMNS = List.of("ratelimit 0", "ratelimit 1000 us", "ratelimit 10000 us");
    /**
     * Published, relative (switches at ratelimit 0 = 100): "1ms delay can reduce 30% context switch at peak
     * performance" (64908a046602 commit message, point 4). The message gives switches for 1 ms only; its 1 ms
     * against 10 ms comparison (point 2, "no big difference") is of performance, a cell of its own that the
     * model cannot score (ValidationCatalogue), so the 10 ms switches are not published (null).
     */
    static final Double[] PUBLISHED = {100.0, 70.0, null};

    private V3CreditRatelimit() {
    }

    static Scenario build(boolean quick) {
        double seconds = quick ? 0.5 : 2;
        List<VmSpec> vms = new ArrayList<>();
        for (int g = 1; g <= 6; g++) {
            vms.add(vm("web" + g, 2, workload("interactive", "threads", 4, "thinkMeanMs", 2.0)));
        }
        for (int g = 1; g <= 2; g++) {
            vms.add(vm("batch" + g, 2, workload("cpu-loop", "threads", 2, "workSeconds", 0)));
        }
        String row = "context switches";
        List<ScenarioRun> runs = new ArrayList<>();
        for (int c = 0; c < LIMITS_US.size(); c++) {
            String label = COLUMNS.get(c);
            runs.add(new ScenarioRun(label, experiment("V3 " + label, 1, StopCondition.DURATION, seconds,
                    host(1, 4, 1), policy("credit", "ratelimitUs", LIMITS_US.get(c)), vms, null), quick ? 1 : 3,
                    List.of(new Measure(row, COLUMNS.get(c), Extractors.at("/totals/contextSwitches", 1),
                            PUBLISHED[c])), null));
        }
        ScenarioTable table = new ScenarioTable("context switches in the run (lower is better); pub: relative,"
                + " ratelimit 0 = 100" + (quick ? " [quick: " + Specs.fmt(seconds) + " s]" : ""), "count", List.of(row),
                COLUMNS, runs, RatioReference.column(COLUMNS.get(0)));
        return new Scenario("V3", "credit rate limit: fewer switches with a minimum run (Xen 64908a046602)",
                List.of("Host: 1 socket x 4 cores, credit. Six guests of 2 vCPUs, 4 interactive threads each (think"
                                + " ~2 ms, bursts ~200 us), and two CPU-bound guests of 2 vCPUs; "
                                + Specs.fmt(seconds) + " s.",
                        "The source's mix (SPECvirt) and host are not given: a consolidated wake-up-heavy stand-in."),
                "about a third fewer switches with ratelimitUs 1000 than 0 (the source gives no switch count for 10000)",
                List.of(table));
    }
}

package io.schedlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.NumaNodeSpec;
import io.schedlab.engine.spec.SchedulerSpec;
import io.schedlab.engine.spec.TimelineAction;
import io.schedlab.engine.spec.TraceSpec;
import io.schedlab.engine.spec.VcpuAffinitySpec;
import io.schedlab.engine.spec.VmSpec;
import io.schedlab.engine.spec.Violation;
import io.schedlab.engine.spec.WorkloadSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.statistics.Statistics;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.run.RunLimitExceededException;

/**
 * Arbitrary (mostly wrong) experiment documents never make the validator throw: every problem is a
 * violation with a JSON pointer; and whatever it accepts runs (briefly) without an exception.
 */
@AddLifecycleHook(ExploreWithRandomSeeds.class)
class BadInputProperties {
    private final Engine engine = Engine.standard();
    /** Every registered policy name. */
    private static final List<String> POLICIES = Engine.standard().registry().policies().stream()
            .map(d -> d.name()).toList();

    @Property(seed = "20261202", tries = 300)
    void validationNeverThrowsAndAcceptedSpecsRun(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        ExperimentSpec spec = randomSpec(r);
        Limits quick = new Limits(1024, 8192, 1024, 86_400, 200_000, 10_000, 1000);
        Validation v = engine.validate(spec, quick);
        Statistics.collect(v.valid() ? "valid" : v.violations().get(0).pointer().replaceAll("[0-9]+", "N"));
        for (Violation violation : v.violations()) {
            assertThat(violation.pointer()).startsWith("/");
            assertThat(violation.message()).isNotBlank();
        }
        if (v.valid()) {
            assertThat(v.normalized()).isNotNull();
            try {
                engine.run(v.normalized(), quick, RunControl.NONE);
            } catch (RunLimitExceededException expected) {
                // long random runs hit the small event bound: fine
            }
        } else {
            assertThat(v.normalized()).isNull();
        }
    }

    private static <T> T pick(SplittableRandom r, List<T> options) {
        return options.get(r.nextInt(options.size()));
    }

    /** Per document: no bad values at all (half the tries, to exercise runs) or one in twelve. */
    private static int badOneIn;

    private static boolean bad(SplittableRandom r) {
        return badOneIn > 0 && r.nextInt(badOneIn) == 0;
    }

    private static Integer anInt(SplittableRandom r) {
        return bad(r) ? pick(r, Arrays.asList(-1, 0, 100_000)) : pick(r, Arrays.asList(null, 1, 2));
    }

    private static Double aDouble(SplittableRandom r) {
        return bad(r) ? pick(r, Arrays.asList(-1.0, 1e9, Double.NaN)) : pick(r, Arrays.asList(null, 0.0, 0.05, 0.3));
    }

    private static List<Integer> cpus(SplittableRandom r) {
        return bad(r) ? pick(r, Arrays.asList(List.of(), List.of(5), Arrays.asList(1, null), List.of(-1)))
                : pick(r, Arrays.asList(null, null, List.of(0)));
    }

    private static ExperimentSpec randomSpec(SplittableRandom r) {
        badOneIn = r.nextBoolean() ? 0 : 12;
        HostSpec host = r.nextInt(30) == 0 ? null : new HostSpec(anInt(r), pick(r, Arrays.asList(null, 2, 3)),
                pick(r, Arrays.asList(null, 1, 2)), bad(r) ? List.of(new NumaNodeSpec(cpus(r), anInt(r), aDouble(r))) : null,
                bad(r) ? List.of(List.of(10, 21), List.of(21, 10)) : null, anInt(r), anInt(r));
        SchedulerSpec scheduler = r.nextInt(30) == 0 ? null : new SchedulerSpec(
                bad(r) ? pick(r, Arrays.asList(null, "bogus")) : pick(r, POLICIES),
                r.nextInt(8) == 0 ? Map.of(pick(r, List.of("sliceMs", "nope", "ratelimitUs")), pick(r,
                        Arrays.asList(1, -5, "x", 2.5, true))) : null);
        List<VmSpec> vms = new ArrayList<>();
        int n = r.nextInt(30) == 0 ? 0 : 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            Map<String, Object> params = new LinkedHashMap<>();
            String type = bad(r) ? pick(r, Arrays.asList(null, "x")) : pick(r, List.of("idle", "cpu-loop"));
            if (r.nextBoolean()) {
                params.put(bad(r) ? "x" : "threads", bad(r) ? pick(r, Arrays.asList(-1, 0.01, "s", 1e12)) : 2);
            }
            vms.add(new VmSpec(bad(r) ? pick(r, Arrays.asList(null, "vm0", "bad name!", "")) : "vm" + i, anInt(r), anInt(r),
                    anInt(r), cpus(r), cpus(r), r.nextInt(5) == 0 ? List.of(new VcpuAffinitySpec(bad(r) ? anInt(r) : Integer.valueOf(0), cpus(r),
                    cpus(r))) : null, anInt(r), bad(r) ? anInt(r) : null, bad(r) ? cpus(r) : null,
                    bad(r) ? aDouble(r) : null,
                    r.nextInt(30) == 0 ? null : new WorkloadSpec(type, params)));
        }
        List<TimelineAction> timeline = new ArrayList<>();
        int m = r.nextInt(3);
        for (int i = 0; i < m; i++) {
            timeline.add(new TimelineAction(aDouble(r), pick(r, Arrays.asList(null, TimelineAction.Kind.PIN, TimelineAction.Kind.UNPIN, TimelineAction.Kind.SOFT_AFFINITY,
                    TimelineAction.Kind.SET_WEIGHT, TimelineAction.Kind.SET_CAP, TimelineAction.Kind.CREATE_VM,
                    TimelineAction.Kind.SHUTDOWN)),
                    bad(r) ? pick(r, Arrays.asList(null, "ghost")) : pick(r, List.of("vm0", "vm1")), bad(r) ? 5 : null,
                    cpus(r), pick(r, Arrays.asList(null, 100)), pick(r, Arrays.asList(null, 50)),
                    r.nextInt(3) == 0 ? new VmSpec("new" + i, anInt(r), null, null, null, null, null, null, null, null,
                            null, new WorkloadSpec("idle", null)) : null));
        }
        return new ExperimentSpec(bad(r) ? "" : pick(r, Arrays.asList(null, "x")), r.nextInt(5) == 0 ? Map.of("k", "v")
                : null, pick(r, Arrays.asList(null, 1L, -5L)), bad(r) ? pick(r, Arrays.asList(-1.0, 0.0, 1e9))
                : pick(r, Arrays.asList(null, 0.2, 1.0)),
                pick(r, Arrays.asList(null, ExperimentSpec.StopCondition.DURATION, ExperimentSpec.StopCondition.ALL_COMPLETE)), host, scheduler,
                r.nextInt(5) == 0 ? Map.of(bad(r) ? "nope" : "smtFactor", bad(r) ? pick(r, Arrays.asList(7, "a")) : 0.5)
                        : null,
                vms, r.nextBoolean() ? null : timeline,
                r.nextInt(4) == 0 ? new TraceSpec(r.nextBoolean(), bad(r) ? 0L : pick(r, Arrays.asList(null, 5L))) : null);
    }
}

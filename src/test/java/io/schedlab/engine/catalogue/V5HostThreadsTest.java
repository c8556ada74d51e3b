package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.knobs.KnobSet;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * V5's host threads (one per core, {@link V5CriticalSectionBoost#HOST_IO}) preempt vCPU threads at times no two
 * CPUs share: only then does a pause-loop exit of the benchmark VM find a preempted vCPU to yield to, and only then
 * can the critical-section handler choose a different one than upstream's.
 */
class V5HostThreadsTest {
    private static final Engine ENGINE = Engine.standard();
    private static final int HACKBENCH_TABLE = 3;

    /** The quick hackbench run with {@code vms} VMs (1-3), vanilla (column 0) or boosted (column 1). */
    private static ExperimentSpec hackbench(int vms, int column) {
        Scenario v5 = BuiltInScenarios.byId("V5", true).orElseThrow();
        return v5.tables().get(HACKBENCH_TABLE).runs().get((vms - 1) * 2 + column).spec();
    }

    private static ExperimentSpec withoutHostThreads(ExperimentSpec s) {
        SchedulerSpec k = s.scheduler();
        return new ExperimentSpec(s.name(), s.labels(), s.seed(), s.durationSeconds(), s.stopWhen(), s.host(),
                new SchedulerSpec(k.policy(), k.params(), k.hypervisor(), null), s.costs(), s.vms(), s.timeline(),
                s.trace());
    }

    private static JsonNode run(ExperimentSpec s) {
        return new EngineExecutor(ENGINE, Limits.defaults(), KnobSet.DEFAULTS).run(s);
    }

    private static long stat(JsonNode doc, String name) {
        return doc.path("hypervisorStatistics").path(name).asLong();
    }

    private static double seconds(JsonNode doc) {
        return doc.path("summary").path("vmHeadline").path("bench").path("value").asDouble();
    }

    @Test
    void everyRunHasOneHostThreadPerCore() {
        Scenario v5 = BuiltInScenarios.byId("V5", false).orElseThrow();
        for (ScenarioTable t : v5.tables()) {
            for (ScenarioRun r : t.runs()) {
                assertThat(r.spec().scheduler().hostThreads()).singleElement().satisfies(h ->
                        assertThat(h.threads()).isEqualTo(r.spec().host().sockets() * r.spec().host().coresPerSocket()));
            }
        }
    }

    @Test
    void withTheHostThreadsExitsYieldToPreemptedVcpusAndTheBoostChangesTheRun() {
        JsonNode vanilla = run(hackbench(2, 0));
        JsonNode boosted = run(hackbench(2, 1));
        assertThat(stat(vanilla, "yieldToSucceeded")).as("vanilla: yields to preempted vCPUs").isPositive();
        assertThat(stat(boosted, "yieldToSucceeded")).as("boosted: yields to preempted vCPUs").isPositive();
        assertThat(seconds(boosted)).as("the boost changes who is boosted, so the run").isNotEqualTo(seconds(vanilla));
    }

    @Test
    void withoutThemTheHostDeschedulesTheBenchmarkVcpusTogetherSoNoExitFindsOneToYieldTo() {
        JsonNode vanilla = run(withoutHostThreads(hackbench(2, 0)));
        JsonNode boosted = run(withoutHostThreads(hackbench(2, 1)));
        assertThat(stat(vanilla, "pleExits")).isPositive();
        assertThat(stat(vanilla, "yieldToTried")).as("no preempted candidate at any exit").isZero();
        assertThat(seconds(boosted)).as("vanilla and boosted are the same run").isEqualTo(seconds(vanilla));
    }
}

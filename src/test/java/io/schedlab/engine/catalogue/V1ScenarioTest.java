package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import org.junit.jupiter.api.Test;

/**
 * V1 at its quick size: the CPU hog cuts the I/O VM's throughput far more in Xen 4.6 (a wake-up kicks the pinned
 * hog away and its migration boosts it) than in 4.7, where a wake-up waits at most the rate limit.
 */
class V1ScenarioTest {

    @Test
    void theHogCostsMostOfTheThroughputBeforeTheFixAndLittleAfter() {
        Scenario v1 = BuiltInScenarios.byId("V1", true).orElseThrow();
        ScenarioResult result = ScenarioRunner.of(Engine.standard(), Limits.defaults()).run(v1, s -> { });
        ScenarioResult.TableResult table = result.tables().get(0);
        String alone = V1CreditMigrationBoost.COLUMNS.get(0);
        String hog = V1CreditMigrationBoost.COLUMNS.get(1);
        String before = V1CreditMigrationBoost.ROWS.get(0);
        String after = V1CreditMigrationBoost.ROWS.get(1);
        double beforeRatio = table.cell(before, hog).mean() / table.cell(before, alone).mean();
        double afterRatio = table.cell(after, hog).mean() / table.cell(after, alone).mean();
        assertThat(table.cell(before, alone).mean()).as("alone: the gigabit link's rate")
                .isBetween(950.0, 1000.0);
        assertThat(beforeRatio).as("4.6 with the hog / alone").isLessThan(0.4);
        assertThat(afterRatio).as("4.7 with the hog / alone").isGreaterThan(0.85);
    }

    @Test
    void afterTheFixNoWakeUpWaitsLongerThanTheRateLimitFromTheFirstOn() {
        // VM-I/O starts after the hog's first accounting period: its first wake-up no longer meets a boosted hog
        // and waits out its 30 ms slice, so the rate limit (1 ms) bounds every wait from the start.
        Scenario v1 = BuiltInScenarios.byId("V1", true).orElseThrow();
        String label = V1CreditMigrationBoost.ROWS.get(1) + ", " + V1CreditMigrationBoost.COLUMNS.get(1);
        ExperimentSpec spec = v1.tables().get(0).runs().stream().filter(r -> r.label().equals(label)).findFirst()
                .orElseThrow().spec();
        Engine engine = Engine.standard();
        VmResult io = engine.run(engine.validate(spec, Limits.defaults()).normalized(), Limits.defaults(),
                RunControl.NONE).vms().stream().filter(v -> v.name().equals("vm-io")).findFirst().orElseThrow();
        assertThat(io.wakeLatency().maxNanos()).as("longest wake-up wait of VM-I/O, ns").isLessThan(2_000_000L);
    }
}

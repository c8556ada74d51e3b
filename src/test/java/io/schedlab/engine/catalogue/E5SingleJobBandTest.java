package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * E5's make -j 1 cells take their band from the post's own two runs of the same one-job-at-a-time build (the 4- and
 * the 8-vCPU guest); every other cell keeps the rule band around its published effect.
 */
class E5SingleJobBandTest {

    @Test
    void singleJobCellsSpanThePostsTwoGuestsAndNoOtherCellHasAnOwnBand() {
        for (boolean quick : List.of(true, false)) {
            Scenario e5 = BuiltInScenarios.byId("E5", quick).orElseThrow();
            for (int t = 0; t < 2; t++) {
                ScenarioTable table = e5.tables().get(t);
                for (ScenarioRun run : table.runs()) {
                    Measure m = run.measures().get(0);
                    Band band = ScenarioSweep.band(table, m, e5.title());
                    if (!m.row().equals("1") || m.column().equals("credit2 per-core")) {
                        assertThat(m.band()).as(run.label()).isNull();
                        continue;
                    }
                    assertThat(band.kind()).as(run.label()).isEqualTo("spread");
                    assertThat(band.on()).isEqualTo("effect");
                    double[] effects = perCoreEffects(m.column());
                    assertThat(band.low()).as(run.label()).isCloseTo(Math.min(effects[0], effects[1]), within(1e-12));
                    assertThat(band.high()).as(run.label()).isCloseTo(Math.max(effects[0], effects[1]), within(1e-12));
                    assertThat(band.source()).contains("-j 1").contains("4 vCPUs").contains("with 8");
                }
            }
            // the shown-only variant table scores nothing
            ScenarioTable coresFirst = e5.tables().get(2);
            assertThat(coresFirst.runs()).allSatisfy(r -> assertThat(
                    ScenarioSweep.band(coresFirst, r.measures().get(0), e5.title())).isNull());
        }
    }

    @Test
    void thePostsSingleJobEffectsAreTheBandsEnds() {
        // seed 004: per-socket 100.044 / 82.183 and 103.118 / 95.075; credit 87.466 / 82.183 and 90.104 / 95.075
        Band socket = E5RunqueuePerCore.singleJobBand(1);
        assertThat(socket.low()).isCloseTo(0.0846, within(1e-4));
        assertThat(socket.high()).isCloseTo(0.2173, within(1e-4));
        Band credit = E5RunqueuePerCore.singleJobBand(2);
        assertThat(credit.low()).isCloseTo(-0.0523, within(1e-4));
        assertThat(credit.high()).isCloseTo(0.0643, within(1e-4));
    }

    private static double[] perCoreEffects(String column) {
        double[] effects = new double[2];
        for (int g = 0; g < 2; g++) {
            double[] seconds = PublishedNumbers.e5Seconds(g == 0 ? 4 : 8, column);
            double[] perCore = PublishedNumbers.e5Seconds(g == 0 ? 4 : 8, "credit2 per-core");
            effects[g] = seconds[0] / perCore[0] - 1;
        }
        return effects;
    }
}

package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.catalogue.ScenarioTable.RatioReference;
import io.schedlab.engine.sweepgrid.SweepDefinition.Band;
import java.util.List;
import org.junit.jupiter.api.Test;

class BandsTest {

    @Test
    void anEffectOfFivePerCentOrMoreKeepsItsDirectionAndASizeWithinAQuarter() {
        Band up = Bands.rule(0.22, "seed 004");
        assertThat(up.kind()).isEqualTo("relative");
        assertThat(up.low()).isCloseTo(0.165, within(1e-12));
        assertThat(up.high()).isCloseTo(0.275, within(1e-12));
        Band down = Bands.rule(-0.30, "x");
        assertThat(down.low()).isCloseTo(-0.375, within(1e-12));
        assertThat(down.high()).isCloseTo(-0.225, within(1e-12));
        assertThat(down.contains(0.30)).as("the wrong direction").isFalse();
        assertThat(up.source()).contains("+0.220", "seed 004");
    }

    @Test
    void anEffectUnderFivePerCentIsHeldToTwoPoints() {
        Band small = Bands.rule(0.013, "x");
        assertThat(small.kind()).isEqualTo("points");
        assertThat(small.low()).isCloseTo(-0.007, within(1e-12));
        assertThat(small.high()).isCloseTo(0.033, within(1e-12));
    }

    @Test
    void aValueBandIsWithinAQuarterOfThePublishedValue() {
        Band v = Bands.value(2.0, "seed 000");
        assertThat(v.on()).isEqualTo("value");
        assertThat(v.contains(1.5)).isTrue();
        assertThat(v.contains(1.49)).isFalse();
    }

    @Test
    void aTableBandsEveryPublishedCellButItsReferenceAndKeepsAMeasuresOwnSpread() {
        Band spread = Bands.spread(-0.221, -0.165, "the source's three runs each");
        ScenarioRun ref = run("ref", new Measure("r", "ref", Extractors.vmHeadline("g"), 100.0));
        ScenarioRun a = run("a", new Measure("r", "a", Extractors.vmHeadline("g"), 130.0));
        ScenarioRun b = run("b", new Measure("r", "b", Extractors.vmHeadline("g"), 80.0, spread));
        ScenarioRun none = run("c", new Measure("r", "c", Extractors.vmHeadline("g"), null));
        ScenarioTable table = new ScenarioTable("t", "h", List.of("r"), List.of("ref", "a", "b", "c"),
                List.of(ref, a, b, none), RatioReference.column("ref"));

        assertThat(ScenarioSweep.band(table, ref.measures().get(0), "s")).isNull();
        assertThat(ScenarioSweep.band(table, a.measures().get(0), "s").low()).isCloseTo(0.225, within(1e-12));
        assertThat(ScenarioSweep.band(table, b.measures().get(0), "s")).isEqualTo(spread);
        assertThat(ScenarioSweep.band(table, none.measures().get(0), "s")).isNull();
        assertThat(ScenarioSweep.band(table.unscored(), a.measures().get(0), "s")).as("a variant table").isNull();
    }

    private static ScenarioRun run(String label, Measure m) {
        return new ScenarioRun(label, Specs.experiment(label, 1, null, 1, Specs.host(1, 1, 1), Specs.policy("credit"),
                List.of(Specs.vm("g", 1, Specs.workload("cpu-loop"))), null), 1, List.of(m), null);
    }
}

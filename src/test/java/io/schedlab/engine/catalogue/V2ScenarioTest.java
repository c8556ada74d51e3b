package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.spec.Limits;
import org.junit.jupiter.api.Test;

/**
 * V2 at its quick size: with numa=on (memory local, guest pinned to its node) every compile is faster than with
 * numa=off (memory striped over the eight nodes), in every row of guests and vCPUs, and more so with more guests
 * (their striped streams queue on the links between nodes).
 */
class V2ScenarioTest {

    @Test
    void nodeLocalMemoryBeatsStripedMemoryInEveryRow() {
        Scenario v2 = BuiltInScenarios.byId("V2", true).orElseThrow();
        ScenarioResult result = ScenarioRunner.of(Engine.standard(), Limits.defaults()).run(v2, s -> { });
        ScenarioResult.TableResult table = result.tables().get(0);
        String off = V2NumaPlacement.COLUMNS.get(0);
        String on = V2NumaPlacement.COLUMNS.get(1);
        for (String row : V2NumaPlacement.rows()) {
            double ratio = table.cell(row, on).mean() / table.cell(row, off).mean();
            assertThat(ratio).as(row + ": numa=on / numa=off").isLessThan(0.995);
        }
        for (int vcpus : V2NumaPlacement.VCPUS) {
            String one = V2NumaPlacement.rowName(vcpus, 1);
            String many = V2NumaPlacement.rowName(vcpus, 23);
            double gainAlone = 1 - table.cell(one, on).mean() / table.cell(one, off).mean();
            double gainLoaded = 1 - table.cell(many, on).mean() / table.cell(many, off).mean();
            assertThat(gainLoaded).as(many + " against " + one).isGreaterThan(gainAlone + 0.02);
        }
    }
}

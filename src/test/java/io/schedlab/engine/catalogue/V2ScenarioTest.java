package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.spec.Limits;
import org.junit.jupiter.api.Test;

/**
 * V2 at its quick size: with numa=on (memory local, guest pinned to its node) every compile is faster than with
 * numa=off (memory filled from the top of the host's memory, vCPUs anywhere), in every row of guests and vCPUs,
 * and more so with more guests (their remote streams queue on the links and on the few nodes holding them).
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

    @Test
    void numaOffFillsMemoryFromTheTopZoneUpwardsFourGuestsANode() {
        // 8 nodes of 8 GB: the highest zone is [32 GB, 64 GB) (nodes 4-7), filled from its lowest address; then
        // [16 GB, 32 GB) (nodes 2-3)
        int[] expected = {4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 2, 2, 2, 2, 3, 3, 3};
        for (int g = 0; g < expected.length; g++) {
            assertThat(V2NumaPlacement.numaOffNode(g)).as("guest " + g).isEqualTo(expected[g]);
        }
        assertThat(V2NumaPlacement.numaOffNode(24)).as("the next zone down, [8 GB, 16 GB)").isEqualTo(1);
        assertThat(V2NumaPlacement.numaOffNode(31)).as("the lowest zone's last 2 GB").isEqualTo(0);
    }
}

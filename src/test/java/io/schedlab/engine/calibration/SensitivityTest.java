package io.schedlab.engine.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class SensitivityTest {

    @Test
    void eachKnobIsHalvedAndDoubledAndOnlyTheCellsItDrivesMove() {
        TinyCatalogue catalogue = new TinyCatalogue();
        List<Sensitivity.Row> rows = Sensitivity.of(List.of(TinyCatalogue.A, TinyCatalogue.C), catalogue);

        Sensitivity.Row a = rows.get(0);
        assertThat(a.cases()).containsExactly("A");
        assertThat(a.low().value()).isEqualTo(50);
        assertThat(a.high().value()).isEqualTo(200);
        assertThat(a.moves()).singleElement().satisfies(m -> {
            assertThat(m.cell()).isEqualTo("A/1/row/col");
            assertThat(m.low()).isCloseTo(-0.5, within(1e-12));
            assertThat(m.base()).isCloseTo(0.0, within(1e-12));
            assertThat(m.high()).isCloseTo(1.0, within(1e-12));
        });
        // at the default A's effect 0 lies below its band (0.375 .. 0.625): 0.375 / 0.125 = 3 half-widths;
        // B's 0.3 lies inside (0.225 .. 0.375)
        assertThat(a.base().distance()).isCloseTo(9.0, within(1e-9));
        assertThat(a.base().passed()).isEqualTo(1);
        // at 2x A's effect 1.0 lies (1.0 - 0.625) / 0.125 = 3 half-widths above
        assertThat(a.high().distance()).isCloseTo(9.0, within(1e-9));
        assertThat(a.low().distance()).isCloseTo(49.0, within(1e-9));

        Sensitivity.Row c = rows.get(1);
        assertThat(c.cases()).isEmpty();
        assertThat(c.movesNothing()).isTrue();
        assertThat(CalibrationReport.sensitivity(rows, null))
                .contains("| c | 1.000 ns | Test | none | - | - | moves no case")
                .contains("| a | 100.0 ns | Test | A | 1 / 1 / 1 | 49.00 / 9.00 / 9.00 | A/1/row/col -0.500 / +0.000 / +1.000 |");
    }

    @Test
    void aKnobNoCaseReadsCostsNoScoring() {
        TinyCatalogue catalogue = new TinyCatalogue();
        Sensitivity.of(List.of(TinyCatalogue.C), catalogue);
        assertThat(catalogue.scorings).isEqualTo(1);
    }

    @Test
    void theGeneratedSectionReplacesItselfInTheDocumentAndKeepsTheRest() {
        String doc = "# Fidelity\n\n## Scorecard\n\nx\n\n" + CalibrationReport.HEADING + "\n\nold table\n\n## Later\n\ny\n";
        String section = CalibrationReport.HEADING + "\n\nnew table\n";
        String replaced = CalibrationReport.replaceSection(doc, section);
        assertThat(replaced).isEqualTo("# Fidelity\n\n## Scorecard\n\nx\n\n" + CalibrationReport.HEADING
                + "\n\nnew table\n\n## Later\n\ny\n");
        assertThat(CalibrationReport.section(replaced)).isEqualTo(CalibrationReport.HEADING + "\n\nnew table\n\n");
        assertThat(CalibrationReport.replaceSection("# Fidelity\n", section))
                .isEqualTo("# Fidelity\n\n" + section);
    }
}

package io.schedlab.sweeps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.sweepgrid.SweepAggregator;
import io.schedlab.engine.sweepgrid.SweepCell;
import io.schedlab.engine.sweepgrid.SweepDefinition.Direction;
import io.schedlab.engine.sweepgrid.SweepDefinition.Metric;
import io.schedlab.engine.sweepgrid.SweepDefinition;
import io.schedlab.engine.sweepgrid.SweepDefinition.PublishedCell;
import io.schedlab.engine.sweepgrid.SweepDefinition.PublishedTable;
import io.schedlab.engine.sweepgrid.SweepDefinition.Reference;
import io.schedlab.engine.sweepgrid.SweepTable;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;

/** The table's statistics and % vs baseline from known values, and its tidy CSV. */
class SweepAggregatorTest {

    private final List<SweepCell> cells = List.of(new SweepCell(0, "p=a", Map.of("p", "a")),
            new SweepCell(1, "p=b", Map.of("p", "b")));
    private final List<Metric> metrics = List.of(new Metric("t", "/x/t", Direction.LOWER),
            new Metric("f", "/f", Direction.HIGHER));

    @Test
    void meanSdConfidenceIntervalMinMaxAndPercentVsBaseline() {
        SweepAggregator agg = new SweepAggregator(cells, metrics);
        for (double t : new double[] {1, 2, 3, 4}) {
            agg.add(0, "{\"x\": {\"t\": " + t + "}, \"f\": 0.5}");
        }
        agg.add(1, "{\"x\": {\"t\": 5}, \"f\": 0.25}");
        agg.add(1, "{\"x\": {\"t\": 5}, \"f\": 1}");
        agg.add(1, "{\"x\": {\"t\": null}, \"f\": \"high\"}");

        SweepTable table = agg.table(UUID.randomUUID(), true, List.of("p"), 0);
        SweepTable.Row a = row(table, 0, "t");
        assertThat(a.n()).isEqualTo(4);
        assertThat(a.mean()).isEqualTo(2.5);
        // sample sd of 1..4 = sqrt(5/3); t(0.975, 3) = 3.18245 (Student's t table)
        assertThat(a.sd()).isCloseTo(Math.sqrt(5.0 / 3), within(1e-12));
        double half = 3.182446305 * Math.sqrt(5.0 / 3) / 2;
        assertThat(a.ci95Low()).isCloseTo(2.5 - half, within(1e-6));
        assertThat(a.ci95High()).isCloseTo(2.5 + half, within(1e-6));
        assertThat(a.min()).isEqualTo(1.0);
        assertThat(a.max()).isEqualTo(4.0);
        assertThat(a.deltaPercent()).isEqualTo(0.0);

        SweepTable.Row bt = row(table, 1, "t");
        assertThat(bt.n()).isEqualTo(2);
        assertThat(bt.missing()).isEqualTo(1);
        assertThat(bt.sd()).isEqualTo(0.0);
        assertThat(bt.deltaPercent()).isCloseTo(100.0, within(1e-9)); // 5 vs 2.5
        assertThat(bt.improvementPercent()).as("lower is better: larger is worse").isCloseTo(-100.0, within(1e-9));
        SweepTable.Row bf = row(table, 1, "f");
        assertThat(bf.mean()).isEqualTo(0.625);
        assertThat(bf.deltaPercent()).isCloseTo(25.0, within(1e-9));
        assertThat(bf.improvementPercent()).as("higher is better").isCloseTo(25.0, within(1e-9));
        assertThat(table.signConvention()).contains("positive always means better");
    }

    @Test
    void oneValueHasNoSpreadAndNoBaselineMeansNoPercent() {
        SweepAggregator agg = new SweepAggregator(cells, metrics);
        agg.add(0, "{\"x\": {\"t\": 7}, \"f\": 1}");
        SweepTable table = agg.table(UUID.randomUUID(), false, List.of("p"), null);
        SweepTable.Row a = row(table, 0, "t");
        assertThat(a.mean()).isEqualTo(7.0);
        assertThat(a.sd()).isNull();
        assertThat(a.ci95Low()).isNull();
        assertThat(a.deltaPercent()).isNull();
        SweepTable.Row empty = row(table, 1, "t");
        assertThat(empty.n()).isZero();
        assertThat(empty.mean()).isNull();
    }

    @Test
    void csvIsTidyWithOneColumnPerAxisAndEmptyFieldsForNoValue() throws Exception {
        SweepAggregator agg = new SweepAggregator(cells, metrics);
        agg.add(0, "{\"x\": {\"t\": 1}, \"f\": 1}");
        agg.add(0, "{\"x\": {\"t\": 3}, \"f\": 1}");
        String csv = SweepTableCsv.write(agg.table(UUID.randomUUID(), true, List.of("p"), 0));
        try (CSVParser parser = CSVParser.parse(csv, CSVFormat.RFC4180.builder().setHeader().get())) {
            assertThat(parser.getHeaderNames()).as("the JSON table's field names").containsExactly("cell", "cellKey", "p",
                    "metric", "pointer", "unit", "better", "n", "missing", "mean", "sd", "ci95Low", "ci95High", "min",
                    "max", "baselineMean", "deltaPercent", "improvementPercent");
            List<CSVRecord> records = parser.getRecords();
            assertThat(records).hasSize(4);
            assertThat(records.get(0).get("p")).isEqualTo("a");
            assertThat(records.get(0).get("metric")).isEqualTo("t");
            assertThat(Double.parseDouble(records.get(0).get("mean"))).isEqualTo(2.0);
            assertThat(records.get(0).get("better")).isEqualTo("lower");
            assertThat(records.get(2).get("cellKey")).isEqualTo("p=b");
            assertThat(records.get(2).get("mean")).isEmpty();
        }
        assertThat(csv).as("LF line ends, as the other CSVs of the API").doesNotContain("\r").endsWith("\n");
    }

    /** A published table 2 rows x 2 columns (reference column "a"): cell p=a fills column a, p=b column b. */
    private static PublishedTable published() {
        return new PublishedTable("times, s", "metric", List.of("t row", "f row"), List.of("a", "b"),
                new Reference("a", null), List.of(
                        new PublishedCell("t row", "a", Map.of("p", "a"), "t", 10.0, null),
                        new PublishedCell("t row", "b", Map.of("p", "b"), "t", 15.0, "b is a stand-in"),
                        new PublishedCell("f row", "a", Map.of("p", "a"), "f", null, null)));
    }

    /** One row: reference column a published at 10, column b at {@code b} with {@code band}. */
    private static PublishedTable banded(double b, SweepDefinition.Band band) {
        return new PublishedTable("times, s", "metric", List.of("t row"), List.of("a", "b"), new Reference("a", null),
                List.of(new PublishedCell("t row", "a", Map.of("p", "a"), "t", 10.0, null),
                        new PublishedCell("t row", "b", Map.of("p", "b"), "t", b, null, band)));
    }

    @Test
    void aPublishedCellWithABandPassesOnlyWhenItsSimulatedEffectLiesInIt() {
        SweepDefinition.Band wide = new SweepDefinition.Band("relative", "effect", 0.75, 1.25, "published +1.00");
        SweepDefinition.Band narrow = new SweepDefinition.Band("points", "effect", 0.48, 0.52, "published +0.50");
        PublishedTable inside = banded(20.0, wide);
        PublishedTable outside = banded(15.0, narrow);
        SweepAggregator agg = new SweepAggregator(cells, metrics);
        agg.add(0, "{\"x\": {\"t\": 3}, \"f\": 1}");
        agg.add(1, "{\"x\": {\"t\": 6}, \"f\": 1}");

        SweepTable.PublishedCellView pass = agg.table(UUID.randomUUID(), true, List.of("p"), null, inside)
                .published().cells().get(1);
        SweepTable.PublishedCellView fail = agg.table(UUID.randomUUID(), true, List.of("p"), null, outside)
                .published().cells().get(1);
        assertThat(pass.effect()).as("6 / 3 - 1").isCloseTo(1.0, within(1e-12));
        assertThat(pass.band()).isEqualTo(wide);
        assertThat(pass.pass()).isTrue();
        assertThat(fail.pass()).as("effect +1.00 outside 0.48 .. 0.52").isFalse();
        assertThat(fail.published()).isEqualTo(15.0);
        assertThat(agg.table(UUID.randomUUID(), true, List.of("p"), null, inside).published().cells().get(0).pass())
                .as("the reference cell has no band").isNull();
    }

    @Test
    void aBandedCellWithoutASimulatedValueIsNeitherPassNorFail() {
        SweepDefinition.Band band = new SweepDefinition.Band("relative", "effect", 0.75, 1.25, "published +1.00");
        PublishedTable table = banded(20.0, band);
        SweepAggregator agg = new SweepAggregator(cells, metrics);
        agg.add(0, "{\"x\": {\"t\": 3}, \"f\": 1}");

        assertThat(agg.table(UUID.randomUUID(), false, List.of("p"), null, table).published().cells().get(1).pass())
                .isNull();
    }

    @Test
    void publishedCellsGetTheSimulatedMeanBesideThePublishedValueAndBothEffects() throws Exception {
        SweepAggregator agg = new SweepAggregator(cells, metrics);
        agg.add(0, "{\"x\": {\"t\": 2}, \"f\": 1}");
        agg.add(0, "{\"x\": {\"t\": 4}, \"f\": 1}");
        agg.add(1, "{\"x\": {\"t\": 6}, \"f\": 1}");
        SweepTable table = agg.table(UUID.randomUUID(), true, List.of("p"), null, published());

        SweepTable.PublishedView view = table.published();
        assertThat(view.rows()).containsExactly("t row", "f row");
        assertThat(view.cells()).extracting(SweepTable.PublishedCellView::column).containsExactly("a", "b", "a");
        SweepTable.PublishedCellView b = view.cells().get(1);
        assertThat(b.mean()).isEqualTo(6.0);
        assertThat(b.published()).isEqualTo(15.0);
        assertThat(b.ratio()).as("6 / mean 3 of the reference column").isCloseTo(2.0, within(1e-12));
        assertThat(b.effect()).isCloseTo(1.0, within(1e-12));
        assertThat(b.publishedEffect()).as("15 / 10 - 1").isCloseTo(0.5, within(1e-12));
        assertThat(b.note()).isEqualTo("b is a stand-in");
        assertThat(view.cells().get(0).sd()).isCloseTo(Math.sqrt(2), within(1e-12));
        assertThat(view.cells().get(2).published()).as("the source gives none").isNull();

        SweepTable.Row tidy = row(table, 1, "t");
        assertThat(tidy.publishedRow()).isEqualTo("t row");
        assertThat(tidy.publishedColumn()).isEqualTo("b");
        assertThat(tidy.published()).isEqualTo(15.0);
        assertThat(tidy.effect()).isCloseTo(1.0, within(1e-12));
        assertThat(row(table, 1, "f").published()).as("fills no published cell").isNull();

        String csv = SweepTableCsv.write(table);
        try (CSVParser parser = CSVParser.parse(csv, CSVFormat.RFC4180.builder().setHeader().get())) {
            assertThat(parser.getHeaderNames()).endsWith("publishedRow", "publishedColumn", "published", "effect",
                    "publishedEffect");
            CSVRecord bt = parser.getRecords().get(2);
            assertThat(bt.get("cellKey")).isEqualTo("p=b");
            assertThat(bt.get("publishedColumn")).isEqualTo("b");
            assertThat(Double.parseDouble(bt.get("published"))).isEqualTo(15.0);
            assertThat(Double.parseDouble(bt.get("publishedEffect"))).isCloseTo(0.5, within(1e-12));
        }
    }

    @Test
    void metricsCanAverageSeveralPointersScaleAndCompute() {
        List<Metric> derived = List.of(new Metric("mean", null, Direction.HIGHER, List.of("/a", "/b"), null, null),
                new Metric("us", "/ns", Direction.LOWER, null, null, 1e-3),
                new Metric("overhead", null, Direction.LOWER, null, "overheadPercent", null));
        SweepAggregator agg = new SweepAggregator(cells, derived);
        agg.add(0, "{\"a\": 1, \"b\": 4, \"ns\": 2500, \"pcpus\": [{\"busyNanos\": 80, \"idleNanos\": 10,"
                + " \"overheadNanos\": 10}, {\"busyNanos\": 100, \"idleNanos\": 0, \"overheadNanos\": 0}]}");
        agg.add(0, "{\"a\": 1, \"ns\": 2500, \"pcpus\": []}");
        SweepTable table = agg.table(UUID.randomUUID(), true, List.of("p"), null);
        assertThat(row(table, 0, "mean").mean()).isEqualTo(2.5);
        assertThat(row(table, 0, "mean").missing()).as("b is missing in the second").isEqualTo(1);
        assertThat(row(table, 0, "us").mean()).isEqualTo(2.5);
        assertThat(row(table, 0, "overhead").mean()).as("10 of 200 ns").isCloseTo(5.0, within(1e-12));
        assertThat(row(table, 0, "overhead").missing()).isEqualTo(1);
    }

    @Test
    void everyRowNamesItsUnitFromTheDeclarationTheDocumentsNamingOrAHeadline() {
        List<Metric> units = List.of(new Metric("wake", "/vms/0/wakeLatency/p99Nanos", Direction.LOWER),
                new Metric("wakeUs", "/vms/0/wakeLatency/p99Nanos", Direction.LOWER, null, null, 1e-3),
                new Metric("run", "/summary/simulatedNanos", Direction.LOWER, null, null, 1e-9),
                new Metric("headline", "/summary/vmHeadline/web/value", Direction.HIGHER),
                new Metric("declared", "/summary/contextSwitches", Direction.LOWER, null, null, null, "switches"),
                new Metric("count", "/summary/contextSwitches", Direction.LOWER),
                new Metric("overhead", null, Direction.LOWER, null, "overheadPercent", null));
        SweepAggregator agg = new SweepAggregator(cells, units);
        agg.add(0, "{\"vms\": [{\"wakeLatency\": {\"p99Nanos\": 2000}}], \"summary\": {\"simulatedNanos\": 1e9,"
                + " \"contextSwitches\": 7, \"vmHeadline\": {\"web\": {\"value\": 3.5, \"unit\": \"records/s\"}}}}");
        SweepTable table = agg.table(UUID.randomUUID(), true, List.of("p"), null);
        assertThat(row(table, 0, "wake").unit()).isEqualTo("ns");
        assertThat(row(table, 0, "wakeUs").unit()).as("ns x 1e-3").isEqualTo("us");
        assertThat(row(table, 0, "run").unit()).as("ns x 1e-9").isEqualTo("s");
        assertThat(row(table, 0, "headline").unit()).as("the headline's own unit").isEqualTo("records/s");
        assertThat(row(table, 1, "headline").unit()).as("the same metric in every cell").isEqualTo("records/s");
        assertThat(row(table, 0, "declared").unit()).isEqualTo("switches");
        assertThat(row(table, 0, "count").unit()).as("a count names no unit").isNull();
        assertThat(row(table, 0, "overhead").unit()).isEqualTo("%");
        String csv = SweepTableCsv.write(table);
        assertThat(csv.lines().filter(l -> l.startsWith("0,")).map(l -> l.split(",")[5]).toList())
                .containsExactly("ns", "us", "s", "records/s", "switches", "", "%");
    }

    private static SweepTable.Row row(SweepTable table, int cell, String metric) {
        return table.rows().stream().filter(r -> r.cell() == cell && r.metric().equals(metric)).findFirst().orElseThrow();
    }
}

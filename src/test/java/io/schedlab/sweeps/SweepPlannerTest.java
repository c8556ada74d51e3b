package io.schedlab.sweeps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedlab.engine.sweepgrid.InvalidSweepException;
import io.schedlab.engine.sweepgrid.SweepCell;
import io.schedlab.engine.sweepgrid.SweepDefinition;
import io.schedlab.engine.sweepgrid.SweepPlan;
import io.schedlab.engine.sweepgrid.SweepPlanner;
import io.schedlab.engine.sweepgrid.SweepViolation;
import io.schedlab.experiments.ExperimentSpecReader;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Expansion of axes (pointer values, merge-patch variants), seeds, baseline and every limit, without Spring. */
class SweepPlannerTest {

    private static final String BASE = "{\"seed\": 5, \"host\": {\"sockets\": 1, \"coresPerSocket\": 2},"
            + " \"scheduler\": {\"policy\": \"credit\", \"params\": {\"tsliceMs\": 30}},"
            + " \"vms\": [{\"name\": \"a\", \"vcpus\": 1, \"workload\": {\"type\": \"cpu-loop\"}}]}";
    private static final String METRICS = "[{\"name\": \"f\", \"pointer\": \"/summary/jainIndex\", \"better\": \"higher\"}]";

    private final JsonMapper json = JsonMapper.builder().build();
    private final SweepPlanner planner = new SweepPlanner(new SweepsProperties(20, 3, 4, 1L << 20).limits());

    private SweepPlan plan(String axes, String extra) {
        String body = "{\"base\": " + BASE + ", \"axes\": " + axes + ", \"metrics\": " + METRICS + extra + "}";
        return planner.plan(new ExperimentSpecReader().read(body, SweepDefinition.class, "a sweep"));
    }

    @Test
    void cellsAreTheCartesianProductFirstAxisSlowestWithValuesAndMergePatchesApplied() {
        SweepPlan plan = plan("[{\"name\": \"policy\", \"variants\": ["
                + "{\"name\": \"credit2\", \"patch\": {\"scheduler\": {\"policy\": \"credit2\", \"params\": {\"tsliceMs\": null}}}},"
                + "{\"name\": \"static\", \"patch\": {\"scheduler\": {\"policy\": \"static\"}}}]},"
                + " {\"name\": \"vcpus\", \"pointer\": \"/vms/0/vcpus\", \"values\": [1, 2, 4]}]", ", \"repetitions\": 2");

        assertThat(plan.cells()).extracting(SweepCell::key).containsExactly(
                "policy=credit2, vcpus=1", "policy=credit2, vcpus=2", "policy=credit2, vcpus=4",
                "policy=static, vcpus=1", "policy=static, vcpus=2", "policy=static, vcpus=4");
        assertThat(plan.total()).isEqualTo(12);
        JsonNode credit2x4 = plan.cellExperiments().get(2);
        assertThat(credit2x4.at("/scheduler/policy").asString()).isEqualTo("credit2");
        assertThat(credit2x4.at("/scheduler/params").isObject()).isTrue();
        assertThat(credit2x4.at("/scheduler/params/tsliceMs").isMissingNode()).as("null in a merge patch removes").isTrue();
        assertThat(credit2x4.at("/vms/0/vcpus").asInt()).isEqualTo(4);
        JsonNode static1 = plan.cellExperiments().get(3);
        assertThat(static1.at("/scheduler/params/tsliceMs").asInt()).as("members the patch leaves out stay").isEqualTo(30);
        assertThat(static1.at("/vms/0/vcpus").asInt()).isEqualTo(1);
    }

    @Test
    void seedsComeFromTheSweepSeedDeterministicallyAndDifferPerRepetition() {
        List<Long> first = plan("[]", ", \"seed\": 99, \"repetitions\": 4").seeds();
        List<Long> again = plan("[]", ", \"seed\": 99, \"repetitions\": 4").seeds();
        List<Long> other = plan("[]", ", \"seed\": 100, \"repetitions\": 4").seeds();
        assertThat(first).hasSize(4).doesNotHaveDuplicates().isEqualTo(again).isNotEqualTo(other);
        assertThat(first).allMatch(s -> s >= 0);
        assertThat(plan("[]", ", \"repetitions\": 2").seeds()).as("no sweep seed: the base's seed")
                .isEqualTo(plan("[]", ", \"seed\": 5, \"repetitions\": 2").seeds());
    }

    @Test
    void baselineNamesOneLevelOfEveryAxis() {
        String axes = "[{\"name\": \"p\", \"pointer\": \"/scheduler/policy\", \"values\": [\"credit\", \"credit2\"]},"
                + " {\"name\": \"count\", \"pointer\": \"/vms/0/vcpus\", \"values\": [1, 2]}]";
        assertThat(plan(axes, ", \"baseline\": {\"p\": \"credit2\", \"count\": \"1\"}").baselineCell()).isEqualTo(2);
        assertThat(problems(axes, ", \"baseline\": {\"p\": \"credit3\", \"count\": \"1\"}")).extracting(SweepViolation::pointer)
                .containsExactly("/baseline/p");
        assertThat(problems(axes, ", \"baseline\": {\"p\": \"credit\"}")).extracting(SweepViolation::pointer)
                .containsExactly("/baseline");
        assertThat(problems(axes, ", \"baseline\": {\"p\": \"credit\", \"count\": \"1\", \"q\": \"x\"}"))
                .extracting(SweepViolation::pointer).containsExactly("/baseline/q");
    }

    @Test
    void everyProblemOfTheDocumentIsNamedByItsPointer() {
        assertThat(problems("[{\"name\": \"count\", \"pointer\": \"/vms/7/vcpus\", \"values\": [1]}]", ""))
                .singleElement().satisfies(v -> {
                    assertThat(v.pointer()).isEqualTo("/axes/0/pointer");
                    assertThat(v.cell()).isEqualTo("count=1");
                    assertThat(v.message()).contains("/vms/7");
                });
        assertThat(problems("[{\"name\": \"count\", \"pointer\": \"/vms/0/vcpus\", \"values\": [1, 1]}]", ""))
                .extracting(SweepViolation::pointer).containsExactly("/axes/0/values/1");
        assertThat(problems("[{\"name\": \"mean\", \"pointer\": \"/seed\", \"values\": [1]}]", ""))
                .extracting(SweepViolation::pointer).containsExactly("/axes/0/name", "/axes/0/pointer");
        assertThat(problems("[{\"name\": \"count\", \"pointer\": \"/vms/0/vcpus\", \"values\": [1],"
                + " \"variants\": [{\"name\": \"x\", \"patch\": {}}]}]", ""))
                .extracting(SweepViolation::pointer).containsExactly("/axes/0");
        assertThat(problems("[{\"name\": \"v\", \"variants\": [{\"name\": \"x\", \"patch\": 3}]}]", ""))
                .extracting(SweepViolation::pointer).containsExactly("/axes/0/variants/0/patch");
        assertThat(problems("[]", ", \"repetitions\": 0")).extracting(SweepViolation::pointer)
                .containsExactly("/repetitions");
    }

    @Test
    void sizesAreBounded() {
        String values = "[1, 2, 3, 4, 5, 6, 7]";
        assertThat(problems("[{\"name\": \"count\", \"pointer\": \"/vms/0/vcpus\", \"values\": " + values + "}]",
                ", \"repetitions\": 3")).singleElement().satisfies(v -> {
                    assertThat(v.pointer()).isEqualTo("/axes");
                    assertThat(v.message()).contains("21 experiments", "schedlab.sweeps.max-experiments");
                });
        String axis = "{\"name\": \"a%d\", \"pointer\": \"/seedless%d\", \"values\": [1]}";
        String four = "[" + String.join(",", List.of(axis.formatted(1, 1), axis.formatted(2, 2), axis.formatted(3, 3),
                axis.formatted(4, 4))) + "]";
        assertThat(problems(four, "")).extracting(SweepViolation::pointer).containsExactly("/axes");
        String metric = "{\"name\": \"m%d\", \"pointer\": \"/x\", \"better\": \"lower\"}";
        String body = "{\"base\": " + BASE + ", \"metrics\": [" + String.join(",", List.of(metric.formatted(1),
                metric.formatted(2), metric.formatted(3), metric.formatted(4), metric.formatted(5))) + "]}";
        assertThatThrownBy(() -> planner.plan(new ExperimentSpecReader().read(body, SweepDefinition.class, "a sweep")))
                .isInstanceOfSatisfying(InvalidSweepException.class, e -> assertThat(e.violations())
                        .extracting(SweepViolation::pointer).containsExactly("/metrics"));
    }

    @Test
    void everyCountIsRefusedBeforeItsListIsWalkedOrExpanded() {
        // limits here: 20 experiments, 3 axes, 4 metrics, 1 MiB of children's JSON
        String many = java.util.stream.IntStream.range(0, 100_000).mapToObj(i -> "-1")
                .collect(java.util.stream.Collectors.joining(","));
        long start = System.nanoTime();
        assertThat(problems("[]", ", \"seeds\": [" + many + "]")).as("one problem, not one per bad seed")
                .singleElement().satisfies(v -> {
                    assertThat(v.pointer()).isEqualTo("/seeds");
                    assertThat(v.message()).contains("at most 20", "schedlab.sweeps.max-experiments");
                });
        assertThat(problems("[{\"name\": \"n\", \"pointer\": \"/vms/0/vcpus\", \"values\": [" + many + "]}]", ""))
                .as("a value repeated 100,000 times: one problem, no quadratic duplicate search")
                .extracting(SweepViolation::pointer).containsExactly("/axes/0/values");
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms for both").isLessThan(2000);
        assertThat(problems("[]", ", \"repetitions\": 2147483647")).singleElement()
                .satisfies(v -> assertThat(v.message()).contains("between 1 and 20"));
        String cell = "{\"row\": \"r\", \"column\": \"c\", \"cell\": {}, \"metric\": \"f\"}";
        String cells = String.join(",", java.util.Collections.nCopies(101, cell));
        assertThat(problems("[]", ", \"published\": {\"caption\": \"c\", \"rowHeader\": \"h\", \"rows\": [\"r\"],"
                + " \"columns\": [\"c\"], \"cells\": [" + cells + "]}")).extracting(SweepViolation::pointer)
                .containsExactly("/published/cells");
    }

    @Test
    void theJsonAllChildrenWouldHoldIsBoundedBeforeExpansion() {
        String big = "\"" + "x".repeat(60_000) + "\"";
        // 20 children of a ~60 kB base: ~1.2 MB, over this planner's 1 MiB
        String variants = "{\"name\": \"big\", \"patch\": {\"note\": " + big + "}}, {\"name\": \"small\", \"patch\": {}}";
        List<SweepViolation> problems = problems("[{\"name\": \"size\", \"variants\": [" + variants
                + ", {\"name\": \"c\", \"patch\": {}}, {\"name\": \"d\", \"patch\": {}}]}]", ", \"repetitions\": 5");
        assertThat(problems).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo("/base");
            assertThat(v.message()).contains("20 experiments", "at most 1048576", "schedlab.sweeps.max-expanded-bytes");
        });
        assertThat(problemsOrNone("[{\"name\": \"size\", \"variants\": [" + variants + "]}]", ", \"repetitions\": 5")).isEmpty();
        assertThat(plan("[{\"name\": \"size\", \"variants\": [" + variants + "]}]", ", \"repetitions\": 5").total())
                .as("10 such children fit").isEqualTo(10);
    }

    @Test
    void explicitSeedsAreTheRepetitionsSeedsAndMustMatchTheirCount() {
        SweepPlan plan = plan("[]", ", \"seeds\": [3, 4, 5]");
        assertThat(plan.seeds()).containsExactly(3L, 4L, 5L);
        assertThat(plan.total()).as("repetitions default to the seeds' number").isEqualTo(3);
        assertThat(plan.experiment(0, 1).path("seed").asLong()).isEqualTo(4);
        assertThat(problems("[]", ", \"repetitions\": 2, \"seeds\": [3, 4, 5]")).extracting(SweepViolation::pointer)
                .containsExactly("/seeds");
        assertThat(problems("[]", ", \"seeds\": [-1]")).extracting(SweepViolation::pointer).containsExactly("/seeds/0");
    }

    @Test
    void aPublishedTableMustNameRowsColumnsCellsAndMetricsOfTheSweep() {
        String axes = "[{\"name\": \"policy\", \"variants\": [{\"name\": \"credit\", \"patch\": {}}]}]";
        String good = ", \"published\": {\"caption\": \"c\", \"rowHeader\": \"h\", \"rows\": [\"r\"],"
                + " \"columns\": [\"credit\", \"x\"], \"reference\": {\"column\": \"credit\"}, \"cells\": ["
                + "{\"row\": \"r\", \"column\": \"credit\", \"cell\": {\"policy\": \"credit\"}, \"metric\": \"f\", \"value\": 2}]}";
        assertThat(plan(axes, good).definition().published().cells()).hasSize(1);
        String bad = ", \"published\": {\"caption\": \"c\", \"rowHeader\": \"h\", \"rows\": [\"r\"],"
                + " \"columns\": [\"credit\"], \"reference\": {\"column\": \"nope\"}, \"cells\": ["
                + "{\"row\": \"q\", \"column\": \"credit\", \"cell\": {\"policy\": \"credit2\"}, \"metric\": \"g\"}]}";
        assertThat(problems(axes, bad)).extracting(SweepViolation::pointer).containsExactly(
                "/published/reference/column", "/published/cells/0/row", "/published/cells/0/metric",
                "/published/cells/0/cell");
    }

    @Test
    void aPublishedCellsBandNeedsAKnownKindAndQuantityAndOrderedFiniteBounds() {
        String axes = "[{\"name\": \"policy\", \"variants\": [{\"name\": \"credit\", \"patch\": {}}]}]";
        String table = ", \"published\": {\"caption\": \"c\", \"rowHeader\": \"h\", \"rows\": [\"r\"],"
                + " \"columns\": [\"credit\"], \"cells\": [{\"row\": \"r\", \"column\": \"credit\","
                + " \"cell\": {\"policy\": \"credit\"}, \"metric\": \"f\", \"value\": 2, \"band\": ";
        String good = table + "{\"kind\": \"relative\", \"on\": \"value\", \"low\": 1.5, \"high\": 2.5,"
                + " \"source\": \"the post\"}}]}";
        assertThat(plan(axes, good).definition().published().cells().get(0).band().high()).isEqualTo(2.5);
        String bad = table + "{\"kind\": \"guess\", \"on\": \"mood\", \"low\": 3, \"high\": 2}}]}";
        assertThat(problems(axes, bad)).extracting(SweepViolation::pointer).containsExactly(
                "/published/cells/0/band/kind", "/published/cells/0/band/on", "/published/cells/0/band/high",
                "/published/cells/0/band/source");
    }

    @Test
    void aMetricHasExactlyOneSourceAndAKnownComputedFigure() {
        String two = "{\"name\": \"m\", \"pointer\": \"/x\", \"meanOf\": [\"/y\"], \"better\": \"lower\"}";
        String unknown = "{\"name\": \"n\", \"computed\": \"magic\", \"better\": \"lower\"}";
        String zero = "{\"name\": \"o\", \"pointer\": \"/x\", \"scale\": 0, \"better\": \"lower\"}";
        String body = "{\"base\": " + BASE + ", \"metrics\": [" + two + ", " + unknown + ", " + zero + "]}";
        assertThatThrownBy(() -> planner.plan(new ExperimentSpecReader().read(body, SweepDefinition.class, "a sweep")))
                .isInstanceOfSatisfying(InvalidSweepException.class, e -> assertThat(e.violations())
                        .extracting(SweepViolation::pointer).containsExactly("/metrics/0", "/metrics/1/computed",
                                "/metrics/2/scale"));
    }

    private List<SweepViolation> problemsOrNone(String axes, String extra) {
        try {
            plan(axes, extra);
            return List.of();
        } catch (InvalidSweepException e) {
            return e.violations();
        }
    }

    private List<SweepViolation> problems(String axes, String extra) {
        try {
            plan(axes, extra);
        } catch (InvalidSweepException e) {
            return e.violations();
        }
        throw new AssertionError("expected the sweep to be invalid");
    }
}

package io.schedlab.engine.catalogue;

import io.schedlab.engine.builtins.BuiltIns;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.registry.Registry;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BuiltInScenariosTest {

    @Test
    void everyPublishedCellIsFilledByExactlyOneRun() {
        for (boolean quick : new boolean[] {true, false}) {
            for (Scenario s : BuiltInScenarios.all(quick)) {
                for (ScenarioTable t : s.tables()) {
                    Set<String> seen = new HashSet<>();
                    for (ScenarioRun run : t.runs()) {
                        for (Measure m : run.measures()) {
                            assertThat(t.rows()).as(s.id()).contains(m.row());
                            assertThat(t.columns()).as(s.id()).contains(m.column());
                            assertThat(seen.add(m.row() + "|" + m.column())).as(s.id() + " duplicate cell").isTrue();
                        }
                    }
                    assertThat(seen).as(s.id() + " " + t.caption()).hasSize(t.rows().size() * t.columns().size());
                    if (t.ratioTo() != null) {
                        assertThat(t.ratioTo().column() ? t.columns() : t.rows()).contains(t.ratioTo().name());
                    }
                }
            }
        }
    }

    @Test
    void publishedNumbersInTheScenariosAreThePostsNumbers() {
        assertThat(E5RunqueuePerCore.E5_N).isEqualTo(PublishedNumbers.e5N());
        for (int vcpus : new int[] {4, 8}) {
            double[][] table = vcpus == 4 ? E5RunqueuePerCore.E5_PUBLISHED_4 : E5RunqueuePerCore.E5_PUBLISHED_8;
            for (int c = 0; c < E5RunqueuePerCore.E5_COLUMNS.size(); c++) {
                assertThat(table[c]).as(vcpus + " vCPUs, " + E5RunqueuePerCore.E5_COLUMNS.get(c))
                        .containsExactly(PublishedNumbers.e5Seconds(vcpus, E5RunqueuePerCore.E5_COLUMNS.get(c)));
            }
        }
        Scenario e5 = BuiltInScenarios.byId("e5", false).orElseThrow();
        ScenarioTable four = e5.tables().get(0);
        Measure socketJ8 = four.runs().stream().flatMap(r -> r.measures().stream())
                .filter(m -> m.row().equals("8") && m.column().equals("credit2 per-socket")).findFirst().orElseThrow();
        assertThat(socketJ8.published()).isEqualTo(PublishedNumbers.e5Seconds(4, "credit2 per-socket")[4]);
        ScenarioTable e2 = BuiltInScenarios.byId("E2", false).orElseThrow().tables().get(0);
        List<Double> shared = e2.runs().get(0).measures().stream().map(Measure::published).toList();
        List<Double> pinned = e2.runs().get(1).measures().stream().map(Measure::published).toList();
        assertThat(shared).containsOnly(PublishedNumbers.e2SharedSeconds());
        assertThat(pinned).containsOnly(PublishedNumbers.e2PinnedSeconds());
        assertThat(E2Rebalance.E2_PUBLISHED_CPU).containsExactly(PublishedNumbers.e2CpuSeconds("VM1"),
                PublishedNumbers.e2CpuSeconds("VM3"), PublishedNumbers.e2CpuSeconds("dom0 vCPU 1 (pCPU 1)"));
    }

    @Test
    void scenarioWorkloadsExistInTheRegistry() {
        Registry registry = BuiltIns.registry();
        for (Scenario s : BuiltInScenarios.all(false)) {
            for (ScenarioTable t : s.tables()) {
                for (ScenarioRun run : t.runs()) {
                    run.spec().vms().forEach(vm -> {
                        String type = vm.workload().type();
                        if (!type.equals("idle") && !type.equals("cpu-loop")) {
                            assertThat(registry.workload(type)).as(s.id() + " " + type).isPresent();
                            var known = registry.workload(type).orElseThrow().parameters().stream()
                                    .map(p -> p.name()).toList();
                            assertThat(known).as(s.id() + " " + type).containsAll(vm.workload().params().keySet());
                        }
                    });
                }
            }
        }
    }

    @Test
    void quickScenariosAreSmaller() {
        Scenario full = BuiltInScenarios.byId("E2", false).orElseThrow();
        Scenario quick = BuiltInScenarios.byId("E2", true).orElseThrow();
        double fullWork = ((Number) full.tables().get(0).runs().get(0).spec().vms().get(1).workload().params()
                .get("workSeconds")).doubleValue();
        double quickWork = ((Number) quick.tables().get(0).runs().get(0).spec().vms().get(1).workload().params()
                .get("workSeconds")).doubleValue();
        assertThat(quickWork).isLessThan(fullWork / 5);
        assertThat(BuiltInScenarios.byId("E9", true)).isEmpty();
    }
}

package io.schedlab.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.VmSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** V5's set-up is the cover letter's, and its two columns differ only in the PLE handler. */
class V5ScenarioTest {

    private static Scenario v5(boolean quick) {
        return BuiltInScenarios.byId("V5", quick).orElseThrow();
    }

    @Test
    void theHostAndVmsAreTheCoverLettersNinetySixThreadsAndNinetySixVcpuVms() {
        for (ScenarioTable t : v5(false).tables()) {
            for (ScenarioRun r : t.runs()) {
                ExperimentSpec s = r.spec();
                assertThat(s.host().sockets() * s.host().coresPerSocket() * s.host().threadsPerCore()).isEqualTo(96);
                assertThat(s.host().sockets()).isEqualTo(2);
                assertThat(s.vms()).allSatisfy(vm -> assertThat(vm.vcpus()).isEqualTo(96));
                assertThat(s.vms().get(0).name()).isEqualTo("bench");
                assertThat(s.vms().subList(1, s.vms().size())).allSatisfy(vm ->
                        assertThat(vm.workload().type()).isEqualTo("cpu-loop"));
                assertThat(s.scheduler().hypervisor()).isEqualTo("kvm");
            }
        }
    }

    @Test
    void vanillaAndBoostedDifferOnlyInTheHandler() {
        ScenarioTable hackbench = v5(true).tables().get(3);
        for (int i = 0; i < hackbench.runs().size(); i += 2) {
            ExperimentSpec vanilla = hackbench.runs().get(i).spec();
            ExperimentSpec boosted = hackbench.runs().get(i + 1).spec();
            assertThat(vanilla.scheduler().params()).containsEntry("pleHandler", "upstream");
            assertThat(boosted.scheduler().params()).containsEntry("pleHandler", "critical-section");
            assertThat(boosted.vms()).isEqualTo(vanilla.vms());
            assertThat(boosted.host()).isEqualTo(vanilla.host());
            assertThat(withoutHandler(boosted.scheduler().params())).isEqualTo(withoutHandler(vanilla.scheduler().params()));
        }
    }

    private static Map<String, Object> withoutHandler(Map<String, Object> params) {
        Map<String, Object> m = new java.util.HashMap<>(params);
        m.remove("pleHandler");
        return m;
    }

    @Test
    void publishedCellsAreTheCoverLettersNumbers() {
        List<ScenarioTable> tables = v5(false).tables();
        assertThat(published(tables.get(2), "2 VMs", "vanilla")).isEqualTo(3834);
        assertThat(published(tables.get(2), "2 VMs", "boosted")).isEqualTo(4033);
        assertThat(published(tables.get(3), "3 VMs", "vanilla")).isEqualTo(47);
        assertThat(published(tables.get(3), "3 VMs", "boosted")).isEqualTo(35.46);
        assertThat(published(tables.get(0), "ebizzy, vanilla", "1 VM")).isEqualTo(12189);
        assertThat(published(tables.get(1), "ebizzy, vanilla", "3 VMs")).isEqualTo(3828);
    }

    private static double published(ScenarioTable t, String row, String column) {
        return t.runs().stream().flatMap(r -> r.measures().stream())
                .filter(m -> m.row().equals(row) && m.column().equals(column)).findFirst().orElseThrow().published();
    }

    @Test
    void theQuickSizeShortensTheRunsAndKeepsHackbenchsGroups() {
        VmSpec quick = v5(true).tables().get(3).runs().get(0).spec().vms().get(0);
        VmSpec full = v5(false).tables().get(3).runs().get(0).spec().vms().get(0);
        assertThat(quick.workload().params()).containsOnlyKeys("loops");
        assertThat(((Number) quick.workload().params().get("loops")).intValue())
                .isLessThan(((Number) full.workload().params().get("loops")).intValue());
        assertThat(v5(true).tables().get(0).runs().get(0).spec().durationSeconds())
                .isLessThan(v5(false).tables().get(0).runs().get(0).spec().durationSeconds());
    }

    @Test
    void dbenchIsListedAsNotModelledAndTheRestAsScenarioCells() {
        ValidationCatalogue.Case c = ValidationCatalogue.byId("V5").orElseThrow();
        assertThat(c.scenario()).isTrue();
        assertThat(c.unmodelled()).hasSize(3).allSatisfy(u -> assertThat(u.cell()).startsWith("dbench"));
    }
}

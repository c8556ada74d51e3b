package io.schedlab.engine.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.output.VcpuResult;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.spec.ExperimentSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * parallel-build's guest placement: with fork balancing (Linux select_task_rq_fair, SD_BALANCE_FORK) every job of
 * make -j 1 starts on the next idle vCPU after the slot's last one, so the jobs pass over all vCPUs in turn; with
 * last-vcpu the slot keeps its vCPU.
 */
class ParallelBuildForkPlacementTest {

    private static VmResult build(String placement) {
        Map<String, Object> params = Map.of("parallelism", 1, "jobs", 40, "jobMeanMs", 5.0, "jobCv", 0.0,
                "serialTailMs", 0.0, "ioMeanMs", 1.0, "guestPlacement", placement);
        return EngineRuns.vmResult(EngineRuns.run(EngineRuns.spec(EngineRuns.host(1, 4, 1), "credit",
                ExperimentSpec.StopCondition.ALL_COMPLETE, 10, List.of(EngineRuns.vm("make", 4, null, null, null,
                        "parallel-build", params)))), "make");
    }

    @Test
    void forkBalancingSpreadsTheJobsOfOneSlotEvenlyOverTheVcpus() {
        VmResult vm = build("fork-balance");
        assertThat(vm.workloadDetails().get("jobsCompleted")).isEqualTo(40.0);
        // 40 equal jobs of 5 ms over 4 vCPUs in turn: 10 jobs, ~50 ms of CPU, each
        for (VcpuResult v : vm.vcpus()) {
            assertThat(v.cpuNanos()).as("vCPU " + v.vcpu()).isBetween(45_000_000L, 56_000_000L);
        }
    }

    @Test
    void lastVcpuPlacementKeepsTheSlotOnOneVcpu() {
        VmResult vm = build("last-vcpu");
        assertThat(vm.workloadDetails().get("jobsCompleted")).isEqualTo(40.0);
        long busiest = vm.vcpus().stream().mapToLong(VcpuResult::cpuNanos).max().orElseThrow();
        assertThat(busiest).isGreaterThan(195_000_000L);
    }
}

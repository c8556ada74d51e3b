package io.schedlab.engine.spec;

import static io.schedlab.engine.TestSpecs.cpuLoop;
import static io.schedlab.engine.TestSpecs.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.Seconds;
import io.schedlab.engine.Validation;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.output.VmResult;
import io.schedlab.engine.sim.TopologyBuilder;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** pCPU numbering: which ids are one core's threads, and that affinities, placements and NUMA follow it. */
class CpuNumberingTest {
    private static final Engine ENGINE = Engine.standard().withSelfCheck();

    private static HostSpec host(int sockets, int cores, int threads, CpuNumbering numbering) {
        return new HostSpec(sockets, cores, threads, null, null, null, null, null, null, numbering);
    }

    private static Validation validate(ExperimentSpec spec) {
        Validation v = ENGINE.validate(spec, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        return v;
    }

    private static Topology topology(HostSpec host) {
        return TopologyBuilder.build(validate(spec(host, "static", 1.0, List.of(cpuLoop("vm", 0, 0.1)), List.of()))
                .normalized().host());
    }

    @ParameterizedTest
    @EnumSource(CpuNumbering.class)
    void everyHardwareThreadGetsOneIdAndTheIdsNameItsCoreAndSocketBack(CpuNumbering numbering) {
        int sockets = 2;
        int cores = 3;
        int threads = 2;
        Set<Integer> ids = new HashSet<>();
        for (int s = 0; s < sockets; s++) {
            for (int c = 0; c < cores; c++) {
                for (int t = 0; t < threads; t++) {
                    int id = numbering.pcpuId(sockets, cores, threads, s, c, t);
                    assertThat(id).isBetween(0, sockets * cores * threads - 1);
                    assertThat(ids.add(id)).as("id %d given twice", id).isTrue();
                    assertThat(numbering.coreOf(sockets, cores, threads, id)).isEqualTo(s * cores + c);
                    assertThat(numbering.socketOf(sockets, cores, threads, id)).isEqualTo(s);
                }
            }
        }
    }

    @Test
    void coresFirstNumbersEveryCoresFirstThreadBeforeAnySecondOne() {
        Topology adjacent = topology(host(1, 4, 2, null));
        Topology coresFirst = topology(host(1, 4, 2, CpuNumbering.CORES_FIRST));
        assertThat(adjacent.siblings(0)).extracting(p -> p.id).containsExactly(1);
        assertThat(coresFirst.siblings(0)).extracting(p -> p.id).containsExactly(4);
        assertThat(coresFirst.pcpus()).extracting(p -> p.core).containsExactly(0, 1, 2, 3, 0, 1, 2, 3);
        assertThat(coresFirst.pcpus()).extracting(p -> p.thread).containsExactly(0, 0, 0, 0, 1, 1, 1, 1);
        for (int i = 0; i < coresFirst.size(); i++) {
            assertThat(coresFirst.pcpu(i).id).isEqualTo(i);
        }
        // Xen 4.6 creates a 4-vCPU guest on CPUs 7, 0, 1, 2 (seed 004's host): two share a core only when siblings are adjacent
        assertThat(List.of(7, 0, 1, 2).stream().map(p -> adjacent.pcpu(p).core).distinct()).hasSize(3);
        assertThat(List.of(7, 0, 1, 2).stream().map(p -> coresFirst.pcpu(p).core).distinct()).hasSize(4);
    }

    @Test
    void onTwoSocketsTheSecondSocketsFirstThreadsComeBeforeAnySecondThread() {
        Topology t = topology(host(2, 2, 2, CpuNumbering.CORES_FIRST));
        assertThat(t.pcpus()).extracting(p -> p.socket).containsExactly(0, 0, 1, 1, 0, 0, 1, 1);
        assertThat(t.pcpus()).extracting(p -> p.numaNode).containsExactly(0, 0, 1, 1, 0, 0, 1, 1);
        assertThat(t.siblings(2)).extracting(p -> p.id).containsExactly(6);
    }

    @Test
    void twoLoopsPinnedToPcpus0And1ShareACoreOnlyWhenSiblingsAreAdjacent() {
        double work = 2.0;
        double adjacent = slowest(run(host(1, 2, 2, CpuNumbering.SIBLINGS_ADJACENT), work), work);
        double coresFirst = slowest(run(host(1, 2, 2, CpuNumbering.CORES_FIRST), work), work);
        // smtFactor 0.6: two busy siblings each need work / 0.6
        assertThat(adjacent).isCloseTo(work / 0.6, within(0.05 * work));
        assertThat(coresFirst).isCloseTo(work, within(0.02 * work));
    }

    private static ResultDocument run(HostSpec host, double work) {
        Validation v = validate(spec(host, "static", 60, List.of(cpuLoop("A", 0, work), cpuLoop("B", 1, work)),
                List.of()));
        return ENGINE.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }

    private static double slowest(ResultDocument doc, double work) {
        double max = 0;
        for (VmResult r : doc.vms()) {
            assertThat(r.completionNanos()).as(r.name() + " completed").isNotNull();
            max = Math.max(max, Seconds.of(r.completionNanos()));
        }
        assertThat(max).isGreaterThanOrEqualTo(work);
        return max;
    }

    @Test
    void aVmsMemoryNodeDefaultsToTheNodeOfItsFirstPlacementUnderEitherNumbering() {
        ExperimentSpec coresFirst = spec(host(2, 2, 2, CpuNumbering.CORES_FIRST), "static", 1.0,
                List.of(cpuLoop("A", 2, 0.1)), List.of());
        ExperimentSpec adjacent = spec(host(2, 2, 2, null), "static", 1.0, List.of(cpuLoop("A", 2, 0.1)), List.of());
        assertThat(validate(coresFirst).normalized().vms().get(0).numaNode()).as("pCPU 2 is socket 1's").isEqualTo(1);
        assertThat(validate(adjacent).normalized().vms().get(0).numaNode()).as("pCPU 2 is socket 0's").isZero();
    }

    @Test
    void theNormalizedHostNamesItsNumbering() {
        assertThat(validate(spec(host(1, 2, 2, null), "static", 1.0, List.of(cpuLoop("A", 0, 0.1)), List.of()))
                .normalized().host().cpuNumbering()).isEqualTo(CpuNumbering.SIBLINGS_ADJACENT);
        assertThat(CpuNumbering.fromJson("cores_first")).isEqualTo(CpuNumbering.CORES_FIRST);
        assertThat(CpuNumbering.CORES_FIRST.json()).isEqualTo("cores-first");
    }
}

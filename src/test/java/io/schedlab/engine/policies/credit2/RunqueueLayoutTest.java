package io.schedlab.engine.policies.credit2;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.TestSpecs;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.policies.xen.XenVersion;
import io.schedlab.engine.sim.TopologyBuilder;
import io.schedlab.engine.spec.CpuNumbering;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunqueueLayoutTest {

    private static Topology host(int sockets, int cores, int threads) {
        return TestSpecs.topology(sockets, cores, threads);
    }

    @Test
    void perCorePutsSmtSiblingsTogether() {
        RunqueueLayout l = new RunqueueLayout(host(1, 4, 2), "core", 0);
        assertThat(l.count()).isEqualTo(4);
        assertThat(l.runqueueOf(0)).isEqualTo(l.runqueueOf(1));
        assertThat(l.runqueueOf(2)).isEqualTo(l.runqueueOf(3));
        assertThat(l.runqueueOf(1)).isNotEqualTo(l.runqueueOf(2));
    }

    @Test
    void cpuSocketNodeAndAllArrangements() {
        Topology t = host(2, 2, 2);
        assertThat(new RunqueueLayout(t, "cpu", 0).count()).isEqualTo(8);
        assertThat(new RunqueueLayout(t, "socket", 0).count()).isEqualTo(2);
        assertThat(new RunqueueLayout(t, "node", 0).count()).isEqualTo(2);
        assertThat(new RunqueueLayout(t, "all", 0).count()).isEqualTo(1);
        RunqueueLayout s = new RunqueueLayout(t, "socket", 0);
        assertThat(s.runqueueOf(3)).isEqualTo(0);
        assertThat(s.runqueueOf(4)).isEqualTo(1);
    }

    @Test
    void versionDefaultsPickTheRunqueueArrangement() {
        assertThat(Credit2Params.defaults("4.5").effectiveRunqueue()).isEqualTo("socket");
        assertThat(Credit2Params.defaults("4.6").effectiveRunqueue()).isEqualTo("socket");
        assertThat(Credit2Params.defaults("4.7").effectiveRunqueue()).isEqualTo("core");
        assertThat(Credit2Params.defaults("4.8").effectiveRunqueue()).isEqualTo("socket");
        assertThat(Credit2Params.defaults("latest").effectiveRunqueue()).isEqualTo("socket");
        // an explicit runqueue overrides the version default
        assertThat(Credit2Params.defaults("4.6").withRunqueue("core").effectiveRunqueue()).isEqualTo("core");
    }

    @Test
    void from414RunqueuesHoldAtMost16PcpusSpreadEvenlyKeepingCoresWhole() {
        Topology t = host(1, 12, 2); // 24 pCPUs on one socket
        Credit2Params p414 = Credit2Params.defaults("4.14");
        Credit2Params p413 = Credit2Params.defaults("4.13");
        RunqueueLayout split = new RunqueueLayout(t, p414.effectiveRunqueue(), p414.effectiveMaxCpusPerRunqueue());
        RunqueueLayout whole = new RunqueueLayout(t, p413.effectiveRunqueue(), p413.effectiveMaxCpusPerRunqueue());
        assertThat(whole.count()).isEqualTo(1);
        assertThat(split.count()).isEqualTo(2);
        // cpu_add_to_runqueue: ceil(24 / 16) = 2 queues of at most 24 / 2 = 12, the least full taken first
        assertThat(sizes(split, 24)).containsExactly(12, 12);
        for (int cpu = 1; cpu < 24; cpu += 2) {
            assertThat(split.runqueueOf(cpu)).isEqualTo(split.runqueueOf(cpu - 1));
        }
        // 20 single-thread cores: 10 and 10, not 16 and 4
        assertThat(sizes(new RunqueueLayout(host(1, 20, 1), "socket", 16), 20)).containsExactly(10, 10);
    }

    @Test
    void aCoreStaysInOneQueueWhenItsThreadsAreNumberedApart() {
        // cores first: core c = pCPUs c and c + 12; its second thread joins the queue its first one is in
        HostSpec spec = new HostSpec(1, 12, 2, null, null, null, null, null, null, CpuNumbering.CORES_FIRST);
        Topology t = TopologyBuilder.build(Engine.standard().validate(TestSpecs.spec(spec, "static", 1.0,
                List.of(TestSpecs.cpuLoop("vm", 0, 0.1)), List.of()), Limits.defaults()).normalized().host());
        RunqueueLayout split = new RunqueueLayout(t, "socket", 16);
        assertThat(split.count()).isEqualTo(2);
        for (int core = 0; core < 12; core++) {
            assertThat(split.runqueueOf(core + 12)).as("core " + core).isEqualTo(split.runqueueOf(core));
        }
        assertThat(sizes(split, 24)).containsExactly(12, 12);
    }

    private static List<Integer> sizes(RunqueueLayout l, int pcpus) {
        int[] size = new int[l.count()];
        for (int cpu = 0; cpu < pcpus; cpu++) {
            size[l.runqueueOf(cpu)]++;
        }
        return java.util.Arrays.stream(size).boxed().toList();
    }

    @Test
    void versionFeatureGates() {
        assertThat(XenVersion.parse("4.6").smtAwareTickle()).isFalse();
        assertThat(XenVersion.parse("4.7").smtAwareTickle()).isTrue();
        assertThat(XenVersion.parse("4.9").caps()).isFalse();
        assertThat(XenVersion.parse("4.10").caps()).isTrue();
        assertThat(XenVersion.parse("latest").compareTo(XenVersion.parse("4.20"))).isPositive();
        assertThat(XenVersion.allowedValues()).contains("4.5", "4.14", "latest");
    }
}

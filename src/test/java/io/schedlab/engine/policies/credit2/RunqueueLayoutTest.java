package io.schedlab.engine.policies.credit2;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.TestSpecs;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.policies.xen.XenVersion;
import io.schedlab.engine.output.PcpuResult;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.sim.TopologyBuilder;
import io.schedlab.engine.spec.CpuNumbering;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.HostSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.SchedulerSpec;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
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
        Topology t = coresFirst(1, 12, 2);
        RunqueueLayout split = new RunqueueLayout(t, "socket", 16);
        assertThat(split.count()).isEqualTo(2);
        for (int core = 0; core < 12; core++) {
            assertThat(split.runqueueOf(core + 12)).as("core " + core).isEqualTo(split.runqueueOf(core));
        }
        assertThat(sizes(split, 24)).containsExactly(12, 12);
    }

    @Test
    void theSpreadCountsEveryOnlineCpuOfTheHostNotOneSocket() {
        // 40 pCPUs, limit 16: queues of at most 40 / ceil(40 / 16) = 13, opened per socket as they fill
        assertThat(sizes(new RunqueueLayout(host(2, 20, 1), "socket", 16), 40)).containsExactly(13, 7, 13, 7);
    }

    @Test
    void from418RunqueueAllFillsQueuesWithoutKeepingRoomForWholeCores() {
        Topology t = coresFirst(1, 12, 2);
        // 4.14-4.17: a queue takes a first thread only with room for its core, so 6 cores fill queue 0
        assertThat(sizes(new RunqueueLayout(t, "all", 16, 24, false), 24)).containsExactly(12, 12);
        // 4.18+ (commit 1f5747ee92): the 12 first threads fill queue 0 and every second one joins its sibling there
        assertThat(sizes(new RunqueueLayout(t, "all", 16, 24, true), 24)).containsExactly(24);
        // other modes keep the rule
        assertThat(sizes(new RunqueueLayout(t, "socket", 16, 24, true), 24)).containsExactly(12, 12);
    }

    @Test
    void underCoreSchedulingQueuesOfResourcesAreSizedByTheHostsThreads() {
        // 1 x 20 x 2, schedGran core, credit2 4.14: 40 online CPUs, so at most 13 resources (cores) per queue
        ExperimentSpec spec = new ExperimentSpec("rq", null, 1L, 0.05, ExperimentSpec.StopCondition.DURATION,
                new HostSpec(1, 20, 2, null, null, null, null),
                new SchedulerSpec("credit2", Map.of("xenVersion", "4.14", "schedGran", "core")), null,
                List.of(TestSpecs.cpuLoop("vm", 0, 0.01)), List.of(), null);
        Engine engine = Engine.standard();
        ResultDocument doc = engine.run(engine.validate(spec, Limits.defaults()).normalized(), Limits.defaults(),
                RunControl.NONE);
        Map<Integer, Long> perQueue = doc.pcpus().stream()
                .collect(Collectors.groupingBy(PcpuResult::runqueue, TreeMap::new, Collectors.counting()));
        assertThat(perQueue.values()).containsExactly(26L, 14L);
    }

    private static Topology coresFirst(int sockets, int cores, int threads) {
        HostSpec spec = new HostSpec(sockets, cores, threads, null, null, null, null, null, null,
                CpuNumbering.CORES_FIRST);
        return TopologyBuilder.build(Engine.standard().validate(TestSpecs.spec(spec, "static", 1.0,
                List.of(TestSpecs.cpuLoop("vm", 0, 0.1)), List.of()), Limits.defaults()).normalized().host());
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

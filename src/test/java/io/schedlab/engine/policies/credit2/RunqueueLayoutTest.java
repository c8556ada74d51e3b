package io.schedlab.engine.policies.credit2;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.TestSpecs;
import io.schedlab.engine.model.Topology;
import io.schedlab.engine.policies.xen.XenVersion;
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
    void from414RunqueuesHoldAtMost16PcpusKeepingCoresWhole() {
        Topology t = host(1, 12, 2); // 24 pCPUs on one socket
        Credit2Params p414 = Credit2Params.defaults("4.14");
        Credit2Params p413 = Credit2Params.defaults("4.13");
        RunqueueLayout split = new RunqueueLayout(t, p414.effectiveRunqueue(), p414.effectiveMaxCpusPerRunqueue());
        RunqueueLayout whole = new RunqueueLayout(t, p413.effectiveRunqueue(), p413.effectiveMaxCpusPerRunqueue());
        assertThat(whole.count()).isEqualTo(1);
        assertThat(split.count()).isEqualTo(2);
        int inFirst = 0;
        for (int cpu = 0; cpu < 24; cpu++) {
            if (split.runqueueOf(cpu) == 0) {
                inFirst++;
            }
            if (cpu % 2 == 1) {
                assertThat(split.runqueueOf(cpu)).isEqualTo(split.runqueueOf(cpu - 1));
            }
        }
        assertThat(inFirst).isEqualTo(16);
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

package io.schedlab.engine.policies.linux;

import static io.schedlab.engine.policies.linux.LinuxRuns.endlessLoop;
import static io.schedlab.engine.policies.linux.LinuxRuns.host;
import static io.schedlab.engine.policies.linux.LinuxRuns.hostThreads;
import static io.schedlab.engine.policies.linux.LinuxRuns.run;
import static io.schedlab.engine.policies.linux.LinuxRuns.spec;
import static io.schedlab.engine.policies.linux.LinuxRuns.vm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.schedlab.engine.Seconds;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.spec.SchedulerSpec;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** CPU shares on one CPU follow the nice -> weight table and the VM's cgroup weight, within 2%. */
class LinuxSharesTest {

    @ParameterizedTest
    @ValueSource(strings = {"cfs", "eevdf"})
    void niceWeightsGiveProportionalShares(String policy) {
        ResultDocument doc = run(spec(host(1, 1, 1), new SchedulerSpec(policy, null, "kvm",
                List.of(hostThreads("nice0", 1, 0), hostThreads("nice5", 1, 5), hostThreads("niceM3", 1, -3))),
                20, List.of(vm("guest", 1, null, endlessLoop(1)))));
        double nice0 = Seconds.of(LinuxRuns.vm(doc, "nice0").cpuNanosAllVcpus());
        double nice5 = Seconds.of(LinuxRuns.vm(doc, "nice5").cpuNanosAllVcpus());
        double niceM3 = Seconds.of(LinuxRuns.vm(doc, "niceM3").cpuNanosAllVcpus());
        double guest = Seconds.of(LinuxRuns.vm(doc, "guest").cpuNanosAllVcpus());
        // sched_prio_to_weight: nice 0 = 1024, 5 = 335, -3 = 1991; the guest's default weight maps to 1024
        assertThat(nice0 / nice5).isCloseTo(1024.0 / 335, within(0.02 * 1024 / 335));
        assertThat(niceM3 / nice0).isCloseTo(1991.0 / 1024, within(0.02 * 1991 / 1024));
        assertThat(guest / nice0).isCloseTo(1.0, within(0.02));
        assertThat(nice0 + nice5 + niceM3 + guest).isGreaterThan(19.5);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cfs", "eevdf"})
    void vmWeightMapsToItsCgroupWeight(String policy) {
        ResultDocument doc = run(spec(host(1, 1, 1), new SchedulerSpec(policy, null), 20,
                List.of(vm("heavy", 1, 768, endlessLoop(1)), vm("light", 1, 256, endlessLoop(1)))));
        double ratio = (double) LinuxRuns.vm(doc, "heavy").cpuNanosAllVcpus() / LinuxRuns.vm(doc, "light").cpuNanosAllVcpus();
        assertThat(ratio).isCloseTo(3.0, within(0.06));
    }
}

package io.schedlab.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.schedlab.engine.Engine;
import io.schedlab.engine.Validation;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import io.schedlab.engine.spec.VmSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BenchScenarioTest {
    private final Registry registry = BenchScenario.registry();

    @Test
    void theScaledScenarioKeepsTheLoadPerPcpuAndIsAcceptedOnTheLargestHost() {
        ExperimentSpec big = BenchScenario.build(registry, "credit", 1, 1024, BenchScenario.UNCONTENDED_LOCKS);
        assertThat(big.host().usablePcpus()).isEqualTo(1024);
        assertThat(big.host().sockets()).isEqualTo(32);
        assertThat(big.vms()).hasSize(512);
        assertThat(big.vms().stream().mapToInt(VmSpec::vcpus).sum()).isEqualTo(4096);
        assertThat(big.costs()).isEqualTo(BenchScenario.UNCONTENDED_LOCKS);
        Validation v = new Engine(registry).validate(big, Limits.defaults());
        assertThat(v.violations()).isEmpty();
        assertThat(v.normalized().costs()).containsEntry("lockPerEntryNanos", 0L);
    }

    @Test
    void theStandardScenarioIsTheScaledOneAt64PcpusWithDefaultCosts() {
        ExperimentSpec standard = BenchScenario.build(registry, "credit2", 2);
        assertThat(standard).isEqualTo(BenchScenario.build(registry, "credit2", 2, 64, null));
        assertThat(standard.host().usablePcpus()).isEqualTo(64);
        assertThat(standard.vms()).hasSize(32);
        assertThat(standard.name()).isEqualTo("bench-64pcpu-256vcpu");
    }

    @Test
    void aHostThatIsNotAMultipleOf64IsRefused() {
        assertThatThrownBy(() -> BenchScenario.build(registry, "credit", 1, 96, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiple of 64");
    }

    @Test
    void benchWithPcpusPrintsBothHostsSideBySide() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            int rc = Cli.run(new String[] {"bench", "--pcpus", "128", "--seconds", "0.05", "--repeat", "1", "--warmup",
                    "0", "--policy", "static"}, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
            assertThat(rc).as(err.toString(StandardCharsets.UTF_8)).isZero();
        } finally {
            System.setOut(stdout);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("# bench: 64 vs 128 pCPUs", "pair 1 64 static", "pair 1 128 static")
                .containsPattern("scaling +static +M events per cpu-s, median: 64 pCPUs [0-9.]+ \\| 128 pCPUs [0-9.]+ \\|"
                        + " cost per event 128/64 = [0-9.]+");
    }
}

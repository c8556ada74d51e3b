package io.schedlab.engine.workloads;

import io.schedlab.engine.builtins.BuiltIns;
import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.workloads.WorkloadDescriptor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadDescriptorsTest {

    private static final List<String> MINE = List.of("memory-bandwidth", "parallel-build", "spinlock", "interactive",
            "request-response", "trace", "rt-app", "net-stream", "vhost-net");

    @Test
    void standardRegistryHasEveryWorkloadOfThisPackage() {
        Registry registry = BuiltIns.registry();
        for (String type : MINE) {
            assertThat(registry.workload(type)).as(type).isPresent();
        }
    }

    @Test
    void defaultsAreInBoundsDocumentedAndBuildAWorkload() {
        Registry registry = BuiltIns.registry();
        for (String type : MINE) {
            WorkloadDescriptor d = registry.workload(type).orElseThrow();
            assertThat(d.description()).as(type).isNotBlank();
            assertThat(d.unit()).as(type).isNotBlank();
            Map<String, Object> defaults = new LinkedHashMap<>();
            for (ParameterSpec p : d.parameters()) {
                assertThat(p.description()).as(type + "." + p.name()).isNotBlank();
                assertThat(p.source()).as(type + "." + p.name()).isNotBlank();
                assertThat(p.defaultValue()).as(type + "." + p.name()).isNotNull();
                if (p.type() == ParameterSpec.Type.INTEGER || p.type() == ParameterSpec.Type.NUMBER) {
                    double v = ((Number) p.defaultValue()).doubleValue();
                    assertThat(v).as(type + "." + p.name()).isBetween(p.min(), p.max());
                }
                if (p.type() == ParameterSpec.Type.STRING || p.type() == ParameterSpec.Type.JSON) {
                    assertThat(((String) p.defaultValue()).length()).isLessThanOrEqualTo(p.max().intValue());
                }
                if (p.type() == ParameterSpec.Type.ENUM) {
                    assertThat(p.allowedValues()).contains((String) p.defaultValue());
                }
                defaults.put(p.name(), p.defaultValue());
            }
            Workload w = d.factory().apply(new Params(defaults));
            FakeGuest guest = new FakeGuest(2, 1);
            guest.run(w, 200_000_000L);
            assertThat(w.report(guest.now()).unit()).as(type).isEqualTo(d.unit());
        }
    }
}

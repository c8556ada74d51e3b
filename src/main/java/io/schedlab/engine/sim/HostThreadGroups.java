package io.schedlab.engine.sim;

import io.schedlab.engine.spec.HostThreadSpec;
import io.schedlab.engine.spec.SpecNormalizer;
import io.schedlab.engine.spec.VmSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A group of host threads (KVM) runs as a pseudo-VM: one schedulable entity per host thread, allowed on its
 * {@code cpus} (every pCPU when absent), placed round robin over them, started at 0; the Linux policy weighs it
 * by its nice value ({@code Vm.hostNice}).
 */
final class HostThreadGroups {
    private HostThreadGroups() {
    }

    static VmSpec asVm(HostThreadSpec g, int pcpus) {
        List<Integer> all = new ArrayList<>();
        if (g.cpus() != null) {
            all.addAll(g.cpus());
        } else {
            for (int p = 0; p < pcpus; p++) {
                all.add(p);
            }
        }
        List<Integer> placement = new ArrayList<>();
        for (int i = 0; i < g.threads(); i++) {
            placement.add(all.get(i % all.size()));
        }
        return new VmSpec(g.name(), g.threads(), SpecNormalizer.DEFAULT_WEIGHT, 0, all, List.of(), List.of(),
                SpecNormalizer.DEFAULT_MEMORY_MB, 0, placement, 0.0, g.workload());
    }
}

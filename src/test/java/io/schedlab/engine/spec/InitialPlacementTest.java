package io.schedlab.engine.spec;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.Validation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Each modelled release's creation placement (placement absent, placementRule hypervisor-default) on a few hosts:
 * SMT on and off, two sockets, both CPU numberings. Expected lists are worked out by hand from the rules cited in
 * {@link InitialPlacement}.
 */
class InitialPlacementTest {

    private static final Engine ENGINE = Engine.standard();

    private static HostSpec host(int sockets, int cores, int threads, Boolean smt, CpuNumbering numbering) {
        return new HostSpec(sockets, cores, threads, null, null, null, null, null, smt, numbering);
    }

    private static final HostSpec E5_HOST = host(1, 4, 2, null, null);
    private static final HostSpec E5_CORES_FIRST = host(1, 4, 2, null, CpuNumbering.CORES_FIRST);
    private static final HostSpec SMT_OFF = host(1, 4, 2, false, null);
    private static final HostSpec TWO_SOCKETS = host(2, 2, 2, null, null);
    private static final HostSpec TWO_SOCKETS_CORES_FIRST = host(2, 2, 2, null, CpuNumbering.CORES_FIRST);

    private static VmSpec vm(String name, int vcpus) {
        return new VmSpec(name, vcpus, null, null, null, null, null, null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("workSeconds", 1.0)));
    }

    private static VmSpec withRule(VmSpec v, String rule, List<Integer> placement) {
        return new VmSpec(v.name(), v.vcpus(), v.weight(), v.cap(), v.hardAffinity(), v.softAffinity(),
                v.vcpuAffinity(), v.memoryMb(), v.numaNode(), placement, v.startAtSeconds(), v.workload(), null, null,
                rule);
    }

    private static ExperimentSpec spec(HostSpec host, String policy, String xenVersion, long seed, VmSpec... vms) {
        Map<String, Object> params = new LinkedHashMap<>();
        if (xenVersion != null) {
            params.put("xenVersion", xenVersion);
        }
        return new ExperimentSpec("placement", null, seed, 1.0, null, host, new SchedulerSpec(policy, params, null, null),
                null, List.of(vms), null, null);
    }

    private static ExperimentSpec normalized(ExperimentSpec raw) {
        Validation r = ENGINE.validate(raw, Limits.defaults());
        assertThat(r.violations()).isEmpty();
        return r.normalized();
    }

    private static List<Integer> placed(HostSpec host, String policy, String xenVersion, int vcpus) {
        return normalized(spec(host, policy, xenVersion, 1, vm("guest", vcpus))).vms().get(0).placement();
    }

    @Test
    void xen46CreatesVcpuZeroOnTheLastNonPrimaryThreadAndCyclesFromThere() {
        // default_vcpu0_location: non-primary threads not on CPU 0's core, ties to the highest; then cpumask_cycle
        assertThat(placed(E5_HOST, "credit2", "4.6", 4)).containsExactly(7, 0, 1, 2);
        assertThat(placed(E5_HOST, "credit2", "4.6", 8)).containsExactly(7, 0, 1, 2, 3, 4, 5, 6);
        // cores first, siblings 0 and 4: the candidates are 5, 6, 7, the tie still goes to 7
        assertThat(placed(E5_CORES_FIRST, "credit2", "4.6", 4)).containsExactly(7, 0, 1, 2);
        // SMT off: every CPU is a core of its own and a candidate except CPU 0
        assertThat(placed(SMT_OFF, "credit2", "4.6", 4)).containsExactly(3, 0, 1, 2);
        assertThat(placed(TWO_SOCKETS, "rtds", "4.6", 3)).containsExactly(7, 0, 1);
        assertThat(placed(TWO_SOCKETS_CORES_FIRST, "rtds", "4.5", 3)).containsExactly(7, 0, 1);
    }

    @Test
    void xen46CountsTheVcpusOfDomainsCreatedBefore() {
        // dom0's two vCPUs land on 7 and 0; the guest's vCPU 0 then takes the least-populated candidate, 5 (3 and 5
        // tie at zero, the higher wins; 7 holds one)
        ExperimentSpec s = normalized(spec(E5_HOST, "credit2", "4.6", 1, vm("dom0", 2), vm("guest", 4)));
        assertThat(s.vms().get(0).placement()).containsExactly(7, 0);
        assertThat(s.vms().get(1).placement()).containsExactly(5, 6, 7, 0);
    }

    @Test
    void xen48To412DrawVcpuZeroFromTheSeedAndCycle() {
        Set<Integer> firsts = new HashSet<>();
        for (long seed = 1; seed <= 40; seed++) {
            List<Integer> p = normalized(spec(E5_HOST, "credit2", "4.10", seed, vm("guest", 4))).vms().get(0)
                    .placement();
            assertThat(normalized(spec(E5_HOST, "credit2", "4.10", seed, vm("guest", 4))).vms().get(0).placement())
                    .as("same seed, same draw").isEqualTo(p);
            for (int i = 1; i < 4; i++) {
                assertThat(p.get(i)).isEqualTo((p.get(i - 1) + 1) % 8);
            }
            firsts.add(p.get(0));
        }
        assertThat(firsts).as("cpumask_any: any online CPU").hasSizeGreaterThan(4);
    }

    @Test
    void xen413OnwardsStartsAtThePoolsFirstCpu() {
        for (HostSpec h : List.of(E5_HOST, E5_CORES_FIRST, SMT_OFF, TWO_SOCKETS)) {
            assertThat(placed(h, "credit2", "4.13", 4)).containsExactly(0, 1, 2, 3);
            assertThat(placed(h, "credit2", "latest", 3)).containsExactly(0, 1, 2);
        }
        // policies without xenVersion model today's sources; sEDF's last release was 4.5
        assertThat(placed(E5_HOST, "credit", null, 2)).containsExactly(0, 1);
        assertThat(placed(E5_HOST, "sedf", null, 2)).containsExactly(7, 0);
        // the next domain cycles on from its own vCPU 0 at CPU 0
        ExperimentSpec two = normalized(spec(E5_HOST, "credit2", "4.14", 1, vm("a", 2), vm("b", 2)));
        assertThat(two.vms().get(1).placement()).containsExactly(0, 1);
    }

    @Test
    void aHardAffinityThatExcludesTheCreationCpuMovesTheVcpuToTheNextAllowedOne() {
        VmSpec pinned = new VmSpec("guest", 2, null, null, List.of(2, 3), null, null, null, null, null, null,
                new WorkloadSpec("cpu-loop", Map.of("workSeconds", 1.0)));
        // 4.6 creates them on 7 and 0; cpumask_cycle over {2, 3} from there gives 2 and 2
        assertThat(normalized(spec(E5_HOST, "credit2", "4.6", 1, pinned)).vms().get(0).placement())
                .containsExactly(2, 2);
        // latest creates them on 0 and 1: both move to 2
        assertThat(normalized(spec(E5_HOST, "credit2", "latest", 1, pinned)).vms().get(0).placement())
                .containsExactly(2, 2);
    }

    @Test
    void kvmPlacesEachVcpuThreadWhereForkBalancingPutsANewTask() {
        // from CPU 0 (the VMM's thread, busy): the core with most idle CPUs, ties by the sleeping threads'
        // utilization, first found; inside the core the first idle CPU
        assertThat(placed(E5_HOST, "cfs", null, 4)).containsExactly(2, 4, 6, 2);
        assertThat(placed(E5_CORES_FIRST, "eevdf", null, 4)).containsExactly(1, 2, 3, 1);
        assertThat(placed(SMT_OFF, "cfs", null, 4)).containsExactly(1, 2, 3, 1);
        // two NUMA nodes: the creating thread's node is kept (idle counts differ by 1 <= NUMA_IMBALANCE_MIN)
        assertThat(placed(TWO_SOCKETS, "cfs", null, 3)).containsExactly(2, 2, 2);
    }

    @Test
    void roundRobinStaysAvailableAndContinuesAcrossVms() {
        ExperimentSpec s = normalized(spec(E5_HOST, "credit2", "4.6", 1,
                withRule(vm("a", 3), InitialPlacement.ROUND_ROBIN, null),
                withRule(vm("b", 3), InitialPlacement.ROUND_ROBIN, null)));
        assertThat(s.vms().get(0).placement()).containsExactly(0, 1, 2);
        assertThat(s.vms().get(1).placement()).containsExactly(3, 4, 5);
        assertThat(s.vms().get(0).placementRule()).isEqualTo("round-robin");
    }

    @Test
    void theNormalizedSpecNamesTheRuleAndValidatesAgainstIt() {
        ExperimentSpec s = normalized(spec(E5_HOST, "credit2", "4.6", 1, vm("guest", 4)));
        assertThat(s.vms().get(0).placementRule()).isEqualTo(InitialPlacement.HYPERVISOR_DEFAULT);
        assertThat(normalized(s)).as("idempotent").isEqualTo(s);
        ExperimentSpec given = normalized(spec(E5_HOST, "credit2", "4.6", 1,
                withRule(vm("guest", 2), null, List.of(3, 4))));
        assertThat(given.vms().get(0).placementRule()).isEqualTo(InitialPlacement.EXPLICIT);
        // a placement the named rule does not give is refused, as is an unknown rule or explicit without placement
        List<String> pointers = new ArrayList<>();
        for (ExperimentSpec bad : List.of(
                spec(E5_HOST, "credit2", "4.6", 1, withRule(vm("guest", 2), "hypervisor-default", List.of(3, 4))),
                spec(E5_HOST, "credit2", "4.6", 1, withRule(vm("guest", 2), "nearest", null)),
                spec(E5_HOST, "credit2", "4.6", 1, withRule(vm("guest", 2), "explicit", null)))) {
            Validation r = ENGINE.validate(bad, Limits.defaults());
            assertThat(r.violations()).hasSize(1);
            pointers.add(r.violations().get(0).pointer());
        }
        assertThat(pointers).containsExactly("/vms/0/placement", "/vms/0/placementRule", "/vms/0/placementRule");
    }
}

package io.schedlab.engine.spec;

import io.schedlab.engine.hypervisor.Hypervisor;
import io.schedlab.engine.policies.xen.XenInsert;
import io.schedlab.engine.policies.xen.XenVersion;
import io.schedlab.engine.registry.PolicyDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Where each vCPU of a VM starts ({@code v->processor} when the VM's vCPUs are created), by the VM's
 * {@code placementRule}:
 * <ul>
 * <li>{@code hypervisor-default} (the default when {@code placement} is absent): what the modelled release
 * does at vCPU creation; see {@link #xenCreation} and {@link #kvmForkPlacement};</li>
 * <li>{@code round-robin}: vCPU after vCPU over each one's hard affinity, one counter running across the
 * VMs in creation order (no hypervisor does this; kept as an explicit choice);</li>
 * <li>{@code explicit}: the pCPUs listed in {@code placement}.</li>
 * </ul>
 * The list computed here is the creation placement. Xen schedulers whose insert hook picks a pCPU
 * (credit, credit2 and RTDS from 4.8, null) then move the vCPU by that pick; the engine makes it when
 * the vCPU is first queued, so the result's {@code initialPlacement} names it ({@link Description#insertPick}).
 */
public final class InitialPlacement {
    public static final String HYPERVISOR_DEFAULT = "hypervisor-default";
    public static final String ROUND_ROBIN = "round-robin";
    public static final String EXPLICIT = "explicit";
    /** Every rule name, the default first. */
    public static final List<String> RULES = List.of(HYPERVISOR_DEFAULT, ROUND_ROBIN, EXPLICIT);

    /**
     * The rule that placed one VM's vCPUs, as the result document states it.
     *
     * @param rule the VM's placementRule
     * @param release the release whose rule applied ("Xen 4.6", "Linux (KVM host)"), null unless hypervisor-default
     * @param creation how vCPU 0 and the others were placed at creation
     * @param insertPick the scheduler's insert hook that re-picks the pCPU when the vCPU is first queued, or null
     * @param source the source file and function of the rule
     */
    public record Description(String rule, String release, String creation, String insertPick, String source) {
    }

    /** Creation state of one experiment: the VMs created so far, in creation order (spec order, then timeline). */
    static final class Creation {
        final HostSpec host;
        final int pcpus;
        final Hypervisor hypervisor;
        final XenVersion xen;
        final long seed;
        /** vCPUs created so far per pCPU: default_vcpu0_location's cnt[], the fork placement's sleeping threads. */
        final int[] populated;
        int roundRobin;
        int vmsCreated;
        private ForkPlacement fork;

        Creation(HostSpec host, int pcpus, Hypervisor hypervisor, XenVersion xen, long seed) {
            this.host = host;
            this.pcpus = pcpus;
            this.hypervisor = hypervisor;
            this.xen = xen;
            this.seed = seed;
            this.populated = new int[pcpus];
        }

        /** The pCPUs of the next VM's vCPUs under {@code rule}, recording them as created. */
        List<Integer> place(String rule, List<Integer> given, List<List<Integer>> hardPerVcpu) {
            int vcpus = hardPerVcpu.size();
            List<Integer> out;
            if (given != null && !given.isEmpty()) {
                out = List.copyOf(given);
                roundRobin += vcpus;
            } else if (ROUND_ROBIN.equals(rule)) {
                List<Integer> p = new ArrayList<>();
                for (int i = 0; i < vcpus; i++) {
                    List<Integer> h = hardPerVcpu.get(i);
                    p.add(h.get(roundRobin % h.size()));
                    roundRobin++;
                }
                out = List.copyOf(p);
            } else {
                out = hypervisor == Hypervisor.KVM ? forkPlacement().place(populated, hardPerVcpu)
                        : xenCreation(xen, host, pcpus, populated, hardPerVcpu, seed, vmsCreated);
                roundRobin += vcpus;
            }
            for (int p : out) {
                if (p >= 0 && p < pcpus) {
                    populated[p]++;
                }
            }
            vmsCreated++;
            return out;
        }

        /** The host's domains for {@link #kvmForkPlacement}, built on first use. */
        private ForkPlacement forkPlacement() {
            if (fork == null) {
                fork = new ForkPlacement(host, pcpus);
            }
            return fork;
        }
    }

    private InitialPlacement() {
    }

    /**
     * The Xen release whose creation rule applies: the policy's {@code xenVersion}, else the release it models
     * ({@link XenInsert#releaseWithoutVersion()}; today's xen/common/sched sources when it says nothing).
     */
    public static XenVersion xenRelease(PolicyDescriptor policy, Map<String, Object> params) {
        Object v = params == null ? null : params.get("xenVersion");
        if (v instanceof String s) {
            return XenVersion.parse(s);
        }
        return policy.capability(XenInsert.class).map(XenInsert::releaseWithoutVersion)
                .orElseGet(() -> XenVersion.parse("latest"));
    }

    /**
     * Xen's creation placement of a domain's vCPUs, per release. {@code online} is every usable pCPU (the model
     * has one cpupool). vCPU 0:
     * <ul>
     * <li>up to 4.7: default_vcpu0_location (xen/common/domctl.c RELEASE-4.6.0, called by XEN_DOMCTL_max_vcpus):
     * the least-populated CPU (vCPUs of existing domains counted by processor), only non-primary hardware threads
     * on an SMT host and never CPU 0's core, ties to the highest number ({@link #defaultVcpu0Location});</li>
     * <li>4.8 to 4.12: cpumask_any(online) (domctl.c RELEASE-4.8.0 XEN_DOMCTL_max_vcpus; xen/include/xen/cpumask.h
     * cpumask_any: get_random() % weight), after commit d5438accce "xen: Remove buggy initial placement
     * algorithm"; Xen's draw is random, the model draws from the experiment seed and the VM's creation index;</li>
     * <li>from 4.13: sched_select_initial_cpu (xen/common/schedule.c RELEASE-4.13.0, sched/core.c from 4.14, called
     * by sched_init_vcpu from vcpu_create): cpumask_first of the domain's node-affinity CPUs in its cpupool. The
     * node affinity is still all nodes then: libxl__build_pre (tools/libxl/libxl_dom.c) calls xc_domain_max_vcpus
     * before libxl_domain_set_nodeaffinity, so vCPU 0 gets the pool's first CPU.</li>
     * </ul>
     * vCPU i > 0: cpumask_cycle(vCPU i-1's processor, online) in every release (same functions). The toolstack
     * sets hard affinities after creating the vCPUs (libxl__build_pre: libxl_set_vcpuaffinity), and
     * vcpu_set_affinity then has the scheduler move a vCPU whose processor it excludes; the model stands in for
     * that pick with cpumask_cycle(processor, hard affinity), the next allowed CPU, which is what rt_res_pick
     * returns and where credit2 before 4.8 keeps it. From 4.8 each vCPU cycles from its predecessor's processor
     * after that predecessor's insert pick; the engine makes the pick when the vCPU is first queued, so here the
     * cycle runs from the creation CPUs (the same whenever the pick keeps the CPU).
     */
    static List<Integer> xenCreation(XenVersion v, HostSpec host, int pcpus, int[] populated,
            List<List<Integer>> hardPerVcpu, long seed, int vmIndex) {
        List<Integer> out = new ArrayList<>();
        int cpu = -1;
        for (int i = 0; i < hardPerVcpu.size(); i++) {
            if (i == 0) {
                if (!v.atLeast(8)) {
                    cpu = defaultVcpu0Location(host, pcpus, populated);
                } else if (!v.atLeast(13)) {
                    cpu = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + vmIndex).nextInt(pcpus);
                } else {
                    cpu = 0;
                }
            } else {
                cpu = (cpu + 1) % pcpus;
            }
            List<Integer> hard = hardPerVcpu.get(i);
            out.add(hard.contains(cpu) ? cpu : cycle(cpu, hard));
        }
        return List.copyOf(out);
    }

    /**
     * default_vcpu0_location (xen/common/domctl.c, 4.0 to 4.7; removed by commit d5438accce for 4.8): start from
     * CPU 0's second thread (CPU 0 without SMT) and exclude CPU 0's core; walk the online CPUs in order, skipping
     * a core's first thread when the core has another and any CPU of a core already seen; take a CPU whose count
     * is less than or equal to the best so far, so a tie goes to the higher number.
     */
    static int defaultVcpu0Location(HostSpec host, int pcpus, int[] populated) {
        TreeSet<Integer> exclude = new TreeSet<>(siblings(host, pcpus, 0));
        int cpu = exclude.first();
        Integer second = exclude.higher(cpu);
        if (second != null) {
            cpu = second;
        }
        for (int i = 0; i < pcpus; i++) {
            if (exclude.contains(i)) {
                continue;
            }
            List<Integer> sib = siblings(host, pcpus, i);
            if (i == sib.get(0) && sib.size() > 1) {
                continue;
            }
            exclude.addAll(sib);
            if (populated[i] <= populated[cpu]) {
                cpu = i;
            }
        }
        return cpu;
    }

    /** The usable pCPUs of {@code cpu}'s core, ascending (per_cpu(cpu_sibling_mask)). */
    static List<Integer> siblings(HostSpec host, int pcpus, int cpu) {
        List<Integer> out = new ArrayList<>();
        int core = host.coreOfPcpu(cpu);
        for (int c = 0; c < pcpus; c++) {
            if (host.coreOfPcpu(c) == core) {
                out.add(c);
            }
        }
        return out;
    }

    /** cpumask_cycle(cpu, mask): the first CPU of the sorted {@code mask} after {@code cpu}, wrapping. */
    static int cycle(int cpu, List<Integer> mask) {
        for (int c : mask) {
            if (c > cpu) {
                return c;
            }
        }
        return mask.get(0);
    }

    /**
     * A KVM vCPU is a host thread the VMM creates (QEMU: qemu_init_vcpu -> qemu_thread_create, one after the
     * other, each sleeping until the guest starts). Linux places a new task at fork: wake_up_new_task ->
     * select_task_rq(WF_FORK) -> select_task_rq_fair, which with SD_BALANCE_FORK set on every level takes the
     * top domain and calls find_idlest_cpu (sched_balance_find_dst_cpu from 6.10), all in kernel/sched/fair.c.
     * Walking down the domains from the creating thread's CPU: find_idlest_group (sched_balance_find_dst_group)
     * prefers, among the groups with allowed CPUs, the one with the most idle CPUs, then the lowest utilization
     * (update_pick_idlest, group_has_spare), the first found on a tie (groups in for_each_cpu_wrap order from the
     * local one); it keeps the local group when that has at least as many idle CPUs, and at a NUMA level keeps
     * the creating thread's node while the idle counts differ by at most NUMA_IMBALANCE_MIN (2), as
     * adjust_numa_imbalance allows with so few tasks running. find_idlest_group_cpu then takes the first idle
     * allowed CPU (equal idle states and stamps). Assumptions, not from a source: the VMM's thread runs on the
     * lowest CPU the VM may use and is the only running task; the threads created before sleep, so they count
     * only as utilization (a new task's util_avg starts at half the spare capacity, post_init_entity_util_avg).
     */
    static List<Integer> kvmForkPlacement(HostSpec host, int pcpus, int[] populated, List<List<Integer>> hardPerVcpu) {
        return new ForkPlacement(host, pcpus).place(populated, hardPerVcpu);
    }

    /** kernel/sched/fair.c NUMA_IMBALANCE_MIN: the idle-CPU difference a NUMA level tolerates with few tasks running. */
    static final int NUMA_IMBALANCE_MIN = 2;

    /** The rule behind a normalized VM's placement, for the result document. */
    public static Description describe(ExperimentSpec normalized, VmSpec vm, PolicyDescriptor policy) {
        String rule = vm.placementRule() != null ? vm.placementRule() : EXPLICIT;
        if (EXPLICIT.equals(rule)) {
            return new Description(rule, null, "the pCPUs listed in placement", insertPick(normalized, policy), null);
        }
        if (ROUND_ROBIN.equals(rule)) {
            return new Description(rule, null, "round robin over each vCPU's hard affinity, one counter across the VMs"
                    + " in creation order", insertPick(normalized, policy), null);
        }
        Hypervisor h = Hypervisor.fromJson(normalized.scheduler().hypervisor()).orElse(Hypervisor.XEN);
        if (h == Hypervisor.KVM) {
            return new Description(rule, "Linux (KVM host)", "each vCPU thread where fork balancing puts a new task:"
                    + " from the creating thread's CPU, the group with most idle CPUs then least utilization, per"
                    + " domain level, then its first idle CPU", null,
                    "kernel/sched/fair.c: select_task_rq_fair (WF_FORK) -> find_idlest_cpu / sched_balance_find_dst_cpu,"
                            + " find_idlest_group, find_idlest_group_cpu; kernel/sched/core.c: wake_up_new_task");
        }
        XenVersion v = xenRelease(policy, normalized.scheduler().params());
        String release = "Xen " + v;
        String cycle = "; vCPU i at cpumask_cycle(vCPU i-1's processor, online CPUs)";
        if (!v.atLeast(8)) {
            return new Description(rule, release, "vCPU 0 at default_vcpu0_location: least-populated CPU, non-primary"
                    + " hardware threads only, not CPU 0's core, ties to the highest number" + cycle,
                    insertPick(normalized, policy), "xen/common/domctl.c: default_vcpu0_location, XEN_DOMCTL_max_vcpus");
        }
        if (!v.atLeast(13)) {
            return new Description(rule, release, "vCPU 0 at cpumask_any(online CPUs), drawn from the experiment seed"
                    + cycle, insertPick(normalized, policy), "xen/common/domctl.c: XEN_DOMCTL_max_vcpus;"
                            + " xen/include/xen/cpumask.h: cpumask_any");
        }
        return new Description(rule, release, "vCPU 0 at the pool's first CPU (cpumask_first of the node-affinity"
                + " CPUs, all nodes at creation)" + cycle, insertPick(normalized, policy),
                "xen/common/sched/core.c: sched_select_initial_cpu, sched_init_vcpu");
    }

    /** The scheduler's insert hook when it picks a pCPU for a new vCPU ({@link XenInsert}), or null. */
    static String insertPick(ExperimentSpec normalized, PolicyDescriptor policy) {
        Hypervisor h = Hypervisor.fromJson(normalized.scheduler().hypervisor()).orElse(Hypervisor.XEN);
        if (h != Hypervisor.XEN) {
            return null;
        }
        XenVersion v = xenRelease(policy, normalized.scheduler().params());
        return policy.capability(XenInsert.class).map(i -> i.insertPick(v)).orElse(null);
    }
}

package io.schedlab.engine.policies.linux;

import io.schedlab.engine.model.Vm;

/**
 * Load weights of Linux tasks: the nice -> weight table (kernel/sched/core.c sched_prio_to_weight, nice 0 =
 * 1024, about x1.25 per step) for host threads, and a VM's cgroup weight for its vCPU threads.
 */
final class NiceWeights {
    /** kernel/sched/core.c sched_prio_to_weight[40], nice -20 .. 19. */
    private static final int[] PRIO_TO_WEIGHT = {
        /* -20 */ 88761, 71755, 56483, 46273, 36291,
        /* -15 */ 29154, 23254, 18705, 14949, 11916,
        /* -10 */ 9548, 7620, 6100, 4904, 3906,
        /*  -5 */ 3121, 2501, 1991, 1586, 1277,
        /*   0 */ 1024, 820, 655, 526, 423,
        /*   5 */ 335, 272, 215, 172, 137,
        /*  10 */ 110, 87, 70, 56, 45,
        /*  15 */ 36, 29, 23, 18, 15,
    };
    /** include/linux/sched.h NICE_0_LOAD (without the 64-bit fixed-point shift). */
    static final int NICE_0_LOAD = 1024;
    /** include/linux/cgroup.h CGROUP_WEIGHT_DFL / CGROUP_WEIGHT_MIN / CGROUP_WEIGHT_MAX. */
    static final int CGROUP_WEIGHT_DFL = 100;
    static final int CGROUP_WEIGHT_MIN = 1;
    static final int CGROUP_WEIGHT_MAX = 10_000;
    /** The Xen-style default VM weight of the spec (xl sched-credit default 256), mapped to cpu.weight 100. */
    static final int SPEC_DEFAULT_WEIGHT = 256;

    private NiceWeights() {
    }

    static int ofNice(int nice) {
        return PRIO_TO_WEIGHT[Math.max(0, Math.min(39, nice + 20))];
    }

    /**
     * A VM's vCPU thread weight: the VM is a cgroup whose cpu.weight is the spec weight scaled so that the
     * default 256 is cgroup v2's default 100; kernel/sched/sched.h sched_weight_from_cgroup turns cpu.weight
     * into a load weight (100 -> 1024). Flattened: every vCPU thread carries its VM's group weight.
     */
    static int ofVmWeight(int specWeight) {
        long cpuWeight = Math.max(CGROUP_WEIGHT_MIN, Math.min(CGROUP_WEIGHT_MAX,
                Math.round(specWeight * (double) CGROUP_WEIGHT_DFL / SPEC_DEFAULT_WEIGHT)));
        return (int) Math.round(cpuWeight * (double) NICE_0_LOAD / CGROUP_WEIGHT_DFL);
    }

    /** Weight of a schedulable entity of this VM: nice for host threads, the cgroup weight for vCPUs. */
    static int of(Vm vm) {
        return vm.hostNice != null ? ofNice(vm.hostNice) : ofVmWeight(vm.weight);
    }
}

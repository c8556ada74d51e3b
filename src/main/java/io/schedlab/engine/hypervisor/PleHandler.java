package io.schedlab.engine.hypervisor;

import java.util.List;

/**
 * Variants of KVM's pause-loop-exit handler (virt/kvm/kvm_main.c kvm_vcpu_on_spin and the postings that
 * changed it). {@code base}: scan for a preempted candidate and yield_to it. {@code undercommit}: return at
 * once when the spinner is alone on its host run queue (the 2012 undercommit patch). {@code
 * overcommit-schedule}: call schedule() when no yield succeeded and others wait on the run queue (the 2012
 * overcommit patch). {@code both}: the two together. {@code ipi-boost}: both, and a preempted vCPU with a
 * pending interrupt is a candidate even when preempted in user mode (commit d73eb57b80b, 2019). {@code
 * lock-queue-head}: ipi-boost, and the vCPU a released guest lock was kicked to is tried first (the
 * pv-spinlock queue head, commit 266e85a5ec9). {@code upstream}: kvm_vcpu_on_spin as Linux 5.x has it, the
 * base scan with d73eb57b80b's candidates and neither 2012 patch (the loop ends with
 * kvm_vcpu_set_in_spin_loop(me, false): no early return, no schedule()). {@code critical-section}: upstream, and
 * a candidate must be inside a guest critical section, its preempt_count not zero or its interrupts off as the
 * pv interface reports them (kvm_arch_boost_candidate of Wanpeng Li, "[PATCH v2 3/5] KVM: X86: Boost vCPU which
 * is in critical section", kvm list 2022-04-01, a patch on kvm/queue; posted, not merged).
 */
enum PleHandler {
    BASE("base"), UNDERCOMMIT("undercommit"), OVERCOMMIT_SCHEDULE("overcommit-schedule"), BOTH("both"),
    IPI_BOOST("ipi-boost"), LOCK_QUEUE_HEAD("lock-queue-head"), UPSTREAM("upstream"),
    CRITICAL_SECTION("critical-section");

    final String json;

    PleHandler(String json) {
        this.json = json;
    }

    static List<String> names() {
        return java.util.Arrays.stream(values()).map(h -> h.json).toList();
    }

    static PleHandler of(String name) {
        for (PleHandler h : values()) {
            if (h.json.equals(name)) {
                return h;
            }
        }
        throw new IllegalArgumentException("unknown PLE handler " + name);
    }

    boolean undercommitReturn() {
        return this == UNDERCOMMIT || this == BOTH || this == IPI_BOOST || this == LOCK_QUEUE_HEAD;
    }

    boolean overcommitSchedule() {
        return this == OVERCOMMIT_SCHEDULE || this == BOTH || this == IPI_BOOST || this == LOCK_QUEUE_HEAD;
    }

    boolean interruptBoost() {
        return this == IPI_BOOST || this == LOCK_QUEUE_HEAD || this == UPSTREAM || this == CRITICAL_SECTION;
    }

    /** kvm_arch_boost_candidate: skip a candidate that is not inside a guest critical section. */
    boolean criticalSectionsOnly() {
        return this == CRITICAL_SECTION;
    }

    boolean queueHeadFirst() {
        return this == LOCK_QUEUE_HEAD;
    }
}

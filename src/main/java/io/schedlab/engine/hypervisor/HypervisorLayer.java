package io.schedlab.engine.hypervisor;

import io.schedlab.engine.model.Vcpu;

/**
 * What the simulator tells the hypervisor about vCPUs beyond the policy's hooks: scheduled in or
 * out on a pCPU, guest lock spinning started or stopped, a guest lock handed to a waiter.
 * Xen's layer turns spinning of HVM guests into pause-loop exits that yield; KVM's turns spinning into
 * pause-loop exits with kvm_vcpu_on_spin's directed yield. Both act through {@link HypervisorHost}, whose
 * schedule path calls the policy.
 */
public interface HypervisorLayer {

    /** v started running on its pCPU (Linux kvm_sched_in). */
    default void vcpuStarted(Vcpu v) {
    }

    /** v left its pCPU, still runnable or not (Linux kvm_sched_out). */
    default void vcpuStopped(Vcpu v) {
    }

    /** The guest thread on v began spinning on a held lock. */
    default void spinStarted(Vcpu v) {
    }

    /** The guest thread on v stopped spinning (it got the lock, or it went away). */
    default void spinStopped(Vcpu v) {
    }

    /**
     * A guest lock was released by a thread on {@code from} (null when no vCPU) to a waiter whose vCPU
     * {@code to} is not running (the pv-spinlock kick of the queue head).
     */
    default void lockHandedToPreempted(Vcpu from, Vcpu to) {
    }

    /** Run-level and per-vCPU counters, or null when this hypervisor keeps none. */
    default HypervisorStatistics statistics() {
        return null;
    }
}

/**
 * The hypervisor layer between the simulator and the scheduler policy: Xen (pause-loop exits of HVM
 * guests calling vcpu_yield) and KVM (vCPUs are host threads of the Linux scheduler; pause-loop exits
 * and kvm_vcpu_on_spin's directed yield live here). The layers reach the policy only through
 * {@link io.schedlab.engine.hypervisor.HypervisorHost}, the simulator's schedule path for the hypervisor.
 */
package io.schedlab.engine.hypervisor;

/**
 * The hypervisor layer between the simulator and the scheduler policy: Xen (the simulator's
 * core.c schedule path, and pause-loop exits of HVM guests calling vcpu_yield) and KVM (vCPUs are host threads of the Linux scheduler;
 * pause-loop exits and kvm_vcpu_on_spin's directed yield live here).
 */
package io.schedlab.engine.hypervisor;

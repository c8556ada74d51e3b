package io.schedlab.engine.spec;

import java.util.List;

/**
 * Under KVM the host Linux schedulers model no CPU bandwidth limit (cgroup cpu.max), so a cap is
 * refused instead of silently ignored: {@code vms[i].cap}, a {@code set-cap} action, a created VM's cap.
 */
final class KvmCapCheck {
    private static final String WHY = "the Linux host schedulers under kvm model no CPU cap (cgroup cpu.max); "
            + "use weight (cgroup cpu.weight) instead";

    private KvmCapCheck() {
    }

    static void check(ExperimentSpec s, String hypervisor, List<Violation> out) {
        if (!"kvm".equals(hypervisor)) {
            return;
        }
        if (s.vms() != null) {
            for (int i = 0; i < s.vms().size(); i++) {
                VmSpec vm = s.vms().get(i);
                if (vm != null && vm.cap() != null && vm.cap() != 0) {
                    out.add(new Violation("/vms/" + i + "/cap", WHY));
                }
            }
        }
        if (s.timeline() != null) {
            for (int i = 0; i < s.timeline().size(); i++) {
                TimelineAction a = s.timeline().get(i);
                if (a == null) {
                    continue;
                }
                if (a.action() == TimelineAction.Kind.SET_CAP) {
                    out.add(new Violation("/timeline/" + i + "/action", "set-cap: " + WHY));
                } else if (a.newVm() != null && a.newVm().cap() != null && a.newVm().cap() != 0) {
                    out.add(new Violation("/timeline/" + i + "/newVm/cap", WHY));
                }
            }
        }
    }
}

package io.schedlab.engine.hypervisor;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.List;

/** Per-VM parameters of Xen's layer, part of the per-VM parameters of the Xen policies that implement yield. */
public final class XenParameters {
    /** Spinning time of an HVM guest's vCPU before its pause-loop exit (0 = none). */
    public static final String PLE_WINDOW = "pleWindowNanos";

    private XenParameters() {
    }

    /** The per-VM parameter specs ({@code vms[i].schedParams}). */
    public static List<ParameterSpec> vmSpecs() {
        return List.of(ParameterSpec.integer(PLE_WINDOW, 0, 0, 1_000_000_000L, "ns",
                "pause-loop exiting of an HVM guest: a vCPU spinning on a guest lock this long exits and yields "
                        + "its pCPU (vcpu_yield), again after each further window; 0 = no exits (a PV guest, or "
                        + "ple_gap=0), the default, so guests spin until preempted",
                "xen/arch/x86/hvm/vmx/vmcs.c ple_gap = 128, ple_window = 4096 TSC cycles (about 1640 ns at 2.5 GHz);"
                        + " vmx.c vmx_vmexit_handler EXIT_REASON_PAUSE_INSTRUCTION -> vcpu_yield"));
    }

    /** The VM's window in ns; 0 when its policy does not declare the parameter. */
    static long window(Params vmParams) {
        Object w = vmParams == null ? null : vmParams.asMap().get(PLE_WINDOW);
        return w == null ? 0 : ((Number) w).longValue();
    }
}

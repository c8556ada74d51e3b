package io.schedlab.engine.hypervisor;

import io.schedlab.engine.params.ParameterSpec;
import io.schedlab.engine.params.Params;
import java.util.List;

/** KVM's pause-loop-exiting parameters, part of every KVM policy's parameters (arch/x86/kvm/vmx/vmx.c module parameters). */
public final class KvmParameters {
    static final String HANDLER = "pleHandler";

    final PleHandler handler;
    final long gapCycles;
    final long windowCycles;
    final long windowGrow;
    final long windowShrink;
    final long windowMax;
    final double cpuGhz;
    final long vmExitNanos;
    final long candidateNanos;
    final long yieldToNanos;
    final boolean yieldToKernelMode;

    KvmParameters(Params p) {
        handler = PleHandler.of(p.getString(HANDLER));
        gapCycles = p.getLong("pleGapCycles");
        windowCycles = p.getLong("pleWindowCycles");
        windowGrow = p.getLong("pleWindowGrow");
        windowShrink = p.getLong("pleWindowShrink");
        windowMax = p.getLong("pleWindowMaxCycles");
        cpuGhz = p.getDouble("cpuGhz");
        vmExitNanos = p.getLong("vmExitNanos");
        candidateNanos = p.getLong("onSpinCandidateNanos");
        yieldToNanos = p.getLong("yieldToNanos");
        yieldToKernelMode = p.getBoolean("yieldToKernelMode");
    }

    /** The parameter specs, for the descriptors of the policies KVM offers. */
    public static List<ParameterSpec> specs() {
        return List.of(
                ParameterSpec.choice(HANDLER, "base", PleHandler.names(),
                        "pause-loop-exit handler: base, undercommit (return at once when alone on the run queue), "
                                + "overcommit-schedule (schedule() when no yield succeeds), both, ipi-boost, lock-queue-head, "
                                + "upstream (Linux 5.x: the base scan with the IPI-boost candidates, no 2012 patch), "
                                + "critical-section (upstream, candidates only inside a guest critical section)",
                        "virt/kvm/kvm_main.c kvm_vcpu_on_spin; 2012 undercommit/overcommit patches; commits d73eb57b80b,"
                                + " 266e85a5ec9; Wanpeng Li, [PATCH v2 3/5] KVM: X86: Boost vCPU which is in critical"
                                + " section, kvm list 2022-04-01"),
                ParameterSpec.integer("pleGapCycles", 128, 0, 1L << 32, "cycles",
                        "ple_gap: most cycles between two PAUSEs of one loop; 0 turns pause-loop exiting off",
                        "arch/x86/kvm/vmx/vmx.c KVM_DEFAULT_PLE_GAP = 128"),
                ParameterSpec.integer("pleWindowCycles", 4096, 1, 1L << 32, "cycles",
                        "ple_window: cycles of spinning before a pause-loop exit (the base window)",
                        "arch/x86/kvm/vmx/vmx.c KVM_VMX_DEFAULT_PLE_WINDOW = 4096"),
                ParameterSpec.integer("pleWindowGrow", 2, 0, 1L << 32, "factor",
                        "ple_window_grow: each exit multiplies the window (or adds, when >= the base window)",
                        "arch/x86/kvm/vmx/vmx.c KVM_DEFAULT_PLE_WINDOW_GROW = 2; __grow_ple_window"),
                ParameterSpec.integer("pleWindowShrink", 0, 0, 1L << 32, "factor",
                        "ple_window_shrink: on sched-in the window is divided (0 = back to the base window)",
                        "arch/x86/kvm/vmx/vmx.c KVM_DEFAULT_PLE_WINDOW_SHRINK = 0; __shrink_ple_window"),
                ParameterSpec.integer("pleWindowMaxCycles", 4_294_967_295L, 1, 1L << 40, "cycles",
                        "ple_window_max", "arch/x86/kvm/vmx/vmx.c KVM_VMX_DEFAULT_PLE_WINDOW_MAX = UINT_MAX"),
                ParameterSpec.number("cpuGhz", 2.5, 0.1, 10, "GHz",
                        "host clock, to turn PLE cycles into time",
                        "calibration knob: E4's source names no host clock; 2.5 GHz is a server Xeon's nominal"
                                + " clock of that era (the X5570 of SplitX runs at 2.93 GHz)"),
                ParameterSpec.integer("vmExitNanos", 1000, 0, 1_000_000, "ns",
                        "a pause-loop exit and re-entry, without the handler's scan",
                        "calibration knob: the direct cost of an exit and re-entry is ~2,000 cycles (SplitX,"
                                + " Landau et al., WIOV'11, Table 1: Xeon X5570 2.93 GHz, KVM 2.6.34), 0.8 us at"
                                + " 2.5 GHz; the default adds ~0.2 us of the indirect (cache) cost the same paper"
                                + " finds up to ten times larger"),
                ParameterSpec.integer("onSpinCandidateNanos", 50, 0, 1_000_000, "ns",
                        "kvm_vcpu_on_spin's cost per candidate vCPU examined",
                        "calibration knob: no source times one candidate; bound: SystemTap's kvm_service_time"
                                + " example measured 4,966,918 PAUSE exits (reason 40) spending 1,273,170 us from"
                                + " kvm_exit to kvm_entry, 0.26 us per exit for the whole handler (host and load"
                                + " not named)"),
                ParameterSpec.integer("yieldToNanos", 500, 0, 1_000_000, "ns",
                        "one yield_to call (double run-queue lock, buddy update)",
                        "calibration knob: no source times yield_to (kernel/sched/core.c: double_rq_lock,"
                                + " yield_to_task_fair, resched_curr); the same 0.26 us mean per handled PAUSE exit"
                                + " (SystemTap kvm_service_time example) bounds what most exits spend"),
                ParameterSpec.bool("yieldToKernelMode", true,
                        "a PLE exit only boosts vCPUs preempted in guest kernel mode (a preempted vCPU counts as in "
                                + "kernel mode when its guest thread held or waited for a lock)",
                        "virt/kvm/kvm_main.c kvm_vcpu_on_spin(me, yield_to_kernel_mode); vmx handle_pause passes true"));
    }
}

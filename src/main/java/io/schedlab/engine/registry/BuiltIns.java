package io.schedlab.engine.registry;

/** The built-in policies and workloads, registered explicitly, one line each. */
final class BuiltIns {
    private BuiltIns() {
    }

    static void registerAll(Registry r) {
        r.register(io.schedlab.engine.policies.StaticPolicy.descriptor());
        r.register(io.schedlab.engine.policies.NullPolicy.descriptor());
        r.register(io.schedlab.engine.policies.credit.CreditPolicy.descriptor());
        r.register(io.schedlab.engine.policies.credit2.Credit2Policy.descriptor());
        r.register(io.schedlab.engine.policies.rt.RtdsPolicy.descriptor());
        r.register(io.schedlab.engine.policies.rt.SedfPolicy.descriptor());
        r.register(io.schedlab.engine.policies.rt.SedfPolicy.gedfDescriptor());
        r.register(io.schedlab.engine.policies.linux.CfsPolicy.descriptor());
        r.register(io.schedlab.engine.policies.linux.EevdfPolicy.descriptor());
        r.register(io.schedlab.engine.workloads.IdleWorkload.descriptor());
        r.register(io.schedlab.engine.workloads.CpuLoopWorkload.descriptor());
        // policies: static, null, credit, credit2, rtds, sedf, gedf (Xen); cfs, eevdf (Linux under KVM) (each policy class exposes a static descriptor())
        // workloads: idle, cpu-loop, memory-bandwidth, parallel-build, spinlock, interactive, trace, rt-app
        r.register(io.schedlab.engine.workloads.MemoryBandwidthWorkload.descriptor());
        r.register(io.schedlab.engine.workloads.ParallelBuildWorkload.descriptor());
        r.register(io.schedlab.engine.workloads.SpinlockWorkload.descriptor());
        r.register(io.schedlab.engine.workloads.InteractiveWorkload.descriptor());
        r.register(io.schedlab.engine.workloads.TraceWorkload.descriptor());
        r.register(io.schedlab.engine.workloads.RtAppWorkload.descriptor());
    }
}

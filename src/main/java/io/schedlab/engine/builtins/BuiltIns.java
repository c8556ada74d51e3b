package io.schedlab.engine.builtins;

import io.schedlab.engine.hypervisor.KvmParameters;
import io.schedlab.engine.policies.arinc653.Arinc653Policy;
import io.schedlab.engine.policies.credit.CreditPolicy;
import io.schedlab.engine.policies.credit2.Credit2Policy;
import io.schedlab.engine.policies.linux.CfsPolicy;
import io.schedlab.engine.policies.linux.EevdfPolicy;
import io.schedlab.engine.policies.reference.NullPolicy;
import io.schedlab.engine.policies.reference.StaticPolicy;
import io.schedlab.engine.policies.rt.RtdsPolicy;
import io.schedlab.engine.policies.rt.SedfPolicy;
import io.schedlab.engine.registry.PolicyDescriptor;
import io.schedlab.engine.registry.Registry;
import io.schedlab.engine.workloads.CpuLoopWorkload;
import io.schedlab.engine.workloads.HackbenchWorkload;
import io.schedlab.engine.workloads.IdleWorkload;
import io.schedlab.engine.workloads.InteractiveWorkload;
import io.schedlab.engine.workloads.MemoryBandwidthWorkload;
import io.schedlab.engine.workloads.ParallelBuildWorkload;
import io.schedlab.engine.workloads.NetStreamWorkload;
import io.schedlab.engine.workloads.RequestResponseWorkload;
import io.schedlab.engine.workloads.RtAppWorkload;
import io.schedlab.engine.workloads.SpinlockWorkload;
import io.schedlab.engine.workloads.TraceWorkload;
import io.schedlab.engine.workloads.VhostNetWorkload;

/** The built-in policies and workloads, registered explicitly, one line each. */
public final class BuiltIns {
    private BuiltIns() {
    }

    /** A registry of every built-in policy and workload. */
    public static Registry registry() {
        Registry r = new Registry();
        registerAll(r);
        return r;
    }

    private static void registerAll(Registry r) {
        // policies: static, null, credit, credit2, rtds, sedf, gedf, arinc653 (Xen); cfs, eevdf (Linux under KVM)
        policy(r, StaticPolicy.descriptor());
        policy(r, NullPolicy.descriptor());
        policy(r, CreditPolicy.descriptor());
        policy(r, Credit2Policy.descriptor());
        policy(r, RtdsPolicy.descriptor());
        policy(r, SedfPolicy.descriptor());
        policy(r, SedfPolicy.gedfDescriptor());
        policy(r, Arinc653Policy.descriptor());
        policy(r, CfsPolicy.descriptor());
        policy(r, EevdfPolicy.descriptor());
        // workloads: idle, cpu-loop, memory-bandwidth, parallel-build, spinlock, hackbench, interactive,
        // request-response, trace, rt-app, net-stream, vhost-net
        r.register(IdleWorkload.descriptor());
        r.register(CpuLoopWorkload.descriptor());
        r.register(MemoryBandwidthWorkload.descriptor());
        r.register(ParallelBuildWorkload.descriptor());
        r.register(SpinlockWorkload.descriptor());
        r.register(HackbenchWorkload.descriptor());
        r.register(InteractiveWorkload.descriptor());
        r.register(RequestResponseWorkload.descriptor());
        r.register(TraceWorkload.descriptor());
        r.register(RtAppWorkload.descriptor());
        r.register(NetStreamWorkload.descriptor());
        r.register(VhostNetWorkload.descriptor());
    }

    /** Registers a policy with its hypervisor's own parameters after its own (KVM: pause-loop exiting). */
    private static void policy(Registry r, PolicyDescriptor d) {
        r.register("kvm".equals(d.hypervisor()) ? d.withParameters(KvmParameters.specs()) : d);
    }
}

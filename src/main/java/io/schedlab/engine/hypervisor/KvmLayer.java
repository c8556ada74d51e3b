package io.schedlab.engine.hypervisor;

import io.schedlab.engine.registry.Params;

/** KVM: the host Linux scheduler (the policy) runs each vCPU as a host thread. */
final class KvmLayer implements HypervisorLayer {
    private final HypervisorHost host;

    private KvmLayer(HypervisorHost host) {
        this.host = host;
    }

    static KvmLayer create(Params policyParams, HypervisorHost host) {
        return new KvmLayer(host);
    }
}

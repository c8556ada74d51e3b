package io.schedlab.engine.policies.credit;

import io.schedlab.engine.model.Vm;
import java.util.ArrayList;
import java.util.List;

/** Per-domain state of credit1 (struct csched_dom): active vCPU list and the weight it counts with. */
final class CreditDomain {
    final Vm vm;
    final List<CreditVcpu> activeVcpus = new ArrayList<>();
    /** Weight as accounted in the global weight total (sdom->weight). */
    int weight;
    boolean onActiveList;

    CreditDomain(Vm vm) {
        this.vm = vm;
        this.weight = vm.weight;
    }

    static CreditDomain of(Vm vm) {
        return (CreditDomain) vm.policyData;
    }
}

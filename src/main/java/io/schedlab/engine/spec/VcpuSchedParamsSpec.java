package io.schedlab.engine.spec;

import java.util.Map;

/** Per-vCPU scheduling parameters of one vCPU ({@code vms[i].vcpuSchedParams[k]}), checked against the policy descriptor. */
public record VcpuSchedParamsSpec(Integer vcpu, Map<String, Object> params) {
}

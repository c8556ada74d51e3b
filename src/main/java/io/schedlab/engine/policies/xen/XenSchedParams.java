package io.schedlab.engine.policies.xen;

import io.schedlab.engine.params.ParameterSpec;

/**
 * Parameter specs that Xen's credit and credit2 share: the same sysctl, default and bounds
 * (one definition, so the two policies cannot drift apart).
 */
public final class XenSchedParams {

    private XenSchedParams() {
    }

    /**
     * sched_ratelimit_us: default XEN_SYSCTL_SCHED_RATELIMIT_DEFAULT (1000 us), at most
     * XEN_SYSCTL_SCHED_RATELIMIT_MAX (500000 us), 0 = off (xen/include/public/sysctl.h).
     */
    public static ParameterSpec ratelimitUs(String description) {
        return ParameterSpec.integer("ratelimitUs", 1000, 0, 500_000, "us", description,
                "xen/include/public/sysctl.h: XEN_SYSCTL_SCHED_RATELIMIT_DEFAULT; sched_ratelimit_us 100-500000");
    }
}

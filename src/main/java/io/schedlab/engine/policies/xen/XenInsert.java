package io.schedlab.engine.policies.xen;

import io.schedlab.engine.registry.DescriptorCapability;

/**
 * Optional capability of a Xen policy: how it treats a new vCPU's creation placement. Its insert hook may
 * re-pick the pCPU when the vCPU is first queued (commit 9f358ddd69 "xen: Have schedulers revise initial
 * placement", 4.8), and a policy without a {@code xenVersion} parameter models one release.
 */
public interface XenInsert extends DescriptorCapability {

    /** The insert hook's pick in release {@code v} (named for the result), or null when insert keeps the processor. */
    String insertPick(XenVersion v);

    /** The release a policy without a {@code xenVersion} parameter models: today's sources unless it says otherwise. */
    default XenVersion releaseWithoutVersion() {
        return XenVersion.parse("latest");
    }

    /** A policy whose insert picks with {@code pick} from 4.8 on (before 4.8 insert keeps the processor). */
    static XenInsert picksFrom48(String pick) {
        return v -> v.atLeast(8) ? pick : null;
    }
}

package io.schedlab.engine.policies.rt;

import io.schedlab.engine.policies.xen.XenInsert;
import io.schedlab.engine.policies.xen.XenVersion;

/** sEDF's release: it has no {@code xenVersion} and was last in Xen 4.5 (removed in 4.6, commit 038c6afe08). */
final class SedfRelease implements XenInsert {

    /** Up to 4.7 insert keeps the processor creation chose (the revising insert came in 4.8, commit 9f358ddd69). */
    @Override
    public String insertPick(XenVersion v) {
        return null;
    }

    @Override
    public XenVersion releaseWithoutVersion() {
        return new XenVersion(5);
    }
}

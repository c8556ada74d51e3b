package io.schedlab.engine.policies;

import io.schedlab.engine.model.Pcpu;

/** A policy with one run queue for all pCPUs behind one lock (Xen rt.c and arinc653.c: one {@code prv->lock}). */
public interface SingleRunqueue extends SchedulerPolicy {

    @Override
    default int lockDomain(Pcpu p) {
        return 0;
    }

    @Override
    default int runqueueOf(Pcpu p) {
        return 0;
    }

    @Override
    default int runqueueCount() {
        return 1;
    }
}

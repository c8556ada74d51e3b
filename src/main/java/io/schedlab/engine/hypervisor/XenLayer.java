package io.schedlab.engine.hypervisor;

/** Xen: everything happens on the simulator's schedule path (xen/common/sched/core.c); no VM exits are modelled. */
final class XenLayer implements HypervisorLayer {
    static final XenLayer INSTANCE = new XenLayer();

    private XenLayer() {
    }
}

/**
 * The discrete-event simulator: virtual nanosecond clock, primitive event heap with lazy
 * invalidation and coalesced timers, the hypervisor schedule path (after Xen's
 * xen/common/sched/core.c), guest kernels time-sharing threads over vCPUs, progress rates (SMT,
 * NUMA, cold caches), accounting and the result builder. Plain Java, single-threaded, deterministic.
 */
package io.schedlab.engine.sim;

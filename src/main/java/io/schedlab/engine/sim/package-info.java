/**
 * The discrete-event simulator: virtual nanosecond clock, primitive event heap with lazy
 * invalidation and coalesced timers, one schedule path per hypervisor as the only caller of the
 * policy's hooks (Xen's after xen/common/sched/core.c, Linux's after kernel/sched/core.c), the vCPU
 * and VM tables, guest kernels time-sharing threads over vCPUs, progress rates (SMT, NUMA, cold
 * caches), accounting, and the result builder and self-check reading a read-only view of the run.
 * Plain Java, single-threaded, deterministic.
 */
package io.schedlab.engine.sim;

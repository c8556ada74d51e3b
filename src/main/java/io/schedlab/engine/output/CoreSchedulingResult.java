package io.schedlab.engine.output;

/**
 * Run-level figures of Xen core scheduling (scheduler parameter {@code schedGran} core|socket with more
 * than one usable pCPU per resource).
 *
 * @param granularity {@code core} or {@code socket}
 * @param cpusPerResource sibling pCPUs scheduled together
 * @param forcedIdleNanos idle time of siblings while their resource ran a unit with no runnable vCPU for
 *     them, summed over pCPUs
 * @param rendezvous rendezvous run (one per scheduling decision on a resource)
 * @param rendezvousNanos rendezvous wait charged as overhead, summed over pCPUs
 */
public record CoreSchedulingResult(String granularity, int cpusPerResource, long forcedIdleNanos, long rendezvous,
        long rendezvousNanos) {
}

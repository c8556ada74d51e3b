package io.schedlab.engine.output;

import java.util.List;

/**
 * Jain's fairness index of the run (see {@code docs/engine.md}, "Fairness"): over the competing VMs,
 * of each VM's CPU rate while alive divided by its weight. 1 = every competing VM got CPU in
 * proportion to its weight; 1/n = one VM got it all. Null when no VM competed.
 *
 * @param jainIndex the index over {@code competingVms}, or null when there is none
 * @param competingVms names of the VMs counted (demand share at least {@code minDemandShare}), creation order
 * @param minDemandShare the demand share from which a VM counts as competing
 */
public record Fairness(Double jainIndex, List<String> competingVms, double minDemandShare) {
}

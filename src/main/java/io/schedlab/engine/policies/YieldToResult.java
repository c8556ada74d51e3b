package io.schedlab.engine.policies;

/**
 * The result of a directed yield, after Linux kernel/sched/core.c yield_to(): {@code YIELDED} (> 0,
 * the target was boosted and the caller reschedules), {@code FAILED} (0: the target is running,
 * not runnable, or the policy refused), {@code ESRCH} (-ESRCH: source and target run queues each
 * hold one task, nothing to gain).
 */
public enum YieldToResult {
    YIELDED, FAILED, ESRCH
}

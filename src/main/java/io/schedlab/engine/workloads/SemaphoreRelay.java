package io.schedlab.engine.workloads;

/**
 * One stage of a pipeline handing units over through semaphores: wait for a unit on one semaphore, work on it in
 * kernel mode, count it, post it to the next stage's semaphore, forever. The net-stream sender and receiver and
 * the vhost worker and kworker are such stages (see {@link VirtioNetQueues} for the semaphores they share); a
 * stage may open with one phase of its own (the sender's window).
 */
final class SemaphoreRelay implements GuestThread {

    private final Phase opening;
    private final int waitOn;
    private final long workNanos;
    private final int postTo;
    private final Runnable passed;
    private int step;

    /**
     * @param opening a phase run once before the first wait, or null
     * @param passed called as each unit is posted on (the stage's counter)
     */
    SemaphoreRelay(Phase opening, int waitOn, long workNanos, int postTo, Runnable passed) {
        this.opening = opening;
        this.waitOn = waitOn;
        this.workNanos = workNanos;
        this.postTo = postTo;
        this.passed = passed;
        this.step = opening == null ? 0 : -1;
    }

    @Override
    public Phase next(long now) {
        if (step < 0) {
            step = 0;
            return opening;
        }
        step = (step + 1) % 3;
        return switch (step) {
            case 1 -> new Phase.SemaphoreWait(waitOn);
            case 2 -> new Phase.Compute(workNanos, false, true);
            default -> {
                passed.run();
                yield new Phase.SemaphorePost(postTo);
            }
        };
    }
}

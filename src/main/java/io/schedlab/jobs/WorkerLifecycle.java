package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.boot.config.DbSchedulerStarter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the db-scheduler workers once the context (incl. Flyway) is up, and stops them first on
 * shutdown: running simulations see the {@link WorkerStopSignal} within one cancel poll, hand their job
 * back to the queue and the next process finishes it. Replaces the starter's own starter bean.
 */
final class WorkerLifecycle implements SmartLifecycle, DbSchedulerStarter {

    private static final Logger log = LoggerFactory.getLogger(WorkerLifecycle.class);

    private final Scheduler scheduler;
    private final boolean enabled;
    private final WorkerStopSignal stopSignal;
    private final PickedAhead pickedAhead;
    private final ReplicaWakeUps wakeUps;
    private volatile boolean running;

    /**
     * {@code pickedAhead}: the hand-back of jobs picked ahead of a free worker, or null when none are picked
     * ahead; {@code wakeUps}: the listener for jobs enqueued by other replicas, or null (not PostgreSQL).
     */
    WorkerLifecycle(Scheduler scheduler, boolean enabled, WorkerStopSignal stopSignal, PickedAhead pickedAhead,
            ReplicaWakeUps wakeUps) {
        this.scheduler = scheduler;
        this.enabled = enabled;
        this.stopSignal = stopSignal;
        this.pickedAhead = enabled ? pickedAhead : null;
        this.wakeUps = enabled ? wakeUps : null;
    }

    @Override
    public void doStart() {
        start();
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        if (enabled) {
            if (pickedAhead != null) {
                pickedAhead.start();
            }
            scheduler.start();
            if (wakeUps != null) {
                wakeUps.start();
            }
        } else {
            log.info("schedlab.jobs.enabled=false: this process enqueues jobs but runs none");
        }
    }

    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        stopSignal.stop();
        if (enabled) {
            if (wakeUps != null) {
                wakeUps.stop(); // first: a hand-back's own notification must not make this replica pick again
            }
            if (pickedAhead != null) {
                pickedAhead.handBackAll(); // before the stop: other replicas take them at once
            }
            scheduler.stop(); // waiting jobs still run and, seeing the stop signal, go back to the queue
            if (pickedAhead != null) {
                pickedAhead.handBackAll(); // any picked while stopping whose queued copy the pool dropped
                pickedAhead.stop();
            }
        }
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stop workers before the web server and datasource go away (default phase is the highest). */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 100;
    }
}

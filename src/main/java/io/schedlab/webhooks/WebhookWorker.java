package io.schedlab.webhooks;

import com.github.kagkarlsson.scheduler.Scheduler;
import org.springframework.context.SmartLifecycle;

/** Starts the webhooks' db-scheduler with the application and stops it (letting attempts end) on shutdown. */
final class WebhookWorker implements SmartLifecycle {

    private final Scheduler scheduler;
    private volatile boolean running;

    WebhookWorker(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    @Override
    public void start() {
        scheduler.start();
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        scheduler.stop();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}

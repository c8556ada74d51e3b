package io.schedlab.webhooks;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import io.micrometer.core.instrument.MeterRegistry;
import io.schedlab.sweeps.persistence.SweepStore;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A db-scheduler of its own for webhooks, on table webhook_tasks (Flyway V21) with
 * {@code schedlab.webhooks.threads} threads: the recurring "dispatch-webhooks" task and one
 * "deliver-webhook" task per delivery (instance id = delivery id). Retries are db-scheduler's:
 * {@code MaxRetriesFailureHandler(max-attempts - 1, ExponentialBackoffFailureHandler(first-retry,
 * backoff-rate))} (db-scheduler FailureHandler.java), which gives the delivery up after the last attempt.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WebhooksProperties.class)
class WebhooksConfiguration {

    static final String TABLE = "webhook_tasks";
    static final String DISPATCH_TASK = "dispatch-webhooks";
    static final String DELIVER_TASK = "deliver-webhook";

    @Bean
    WebhookWorker webhookWorker(DataSource dataSource, WebhooksProperties properties, DeliveryStore store,
            WebhookSecrets secrets, SweepStore sweeps, MeterRegistry registry) {
        WebhookDelivery delivery = new WebhookDelivery(store, secrets,
                new WebhookSender(properties.connectTimeout(), properties.requestTimeout()), new WebhookMetrics(registry));
        FailureHandler<Void> retries = new FailureHandler.MaxRetriesFailureHandler<>(properties.maxAttempts() - 1,
                new FailureHandler.ExponentialBackoffFailureHandler<>(properties.firstRetry(), properties.backoffRate()),
                (complete, operations) -> {
                    delivery.giveUp(UUID.fromString(complete.getExecution().taskInstance.getId()));
                    operations.stop();
                });
        OneTimeTask<Void> deliver = Tasks.oneTime(DELIVER_TASK).onFailure(retries)
                .execute((instance, context) -> {
                    try {
                        delivery.attempt(UUID.fromString(instance.getId()));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("stopped during a webhook attempt", e);
                    }
                });
        WebhookDispatcher dispatcher = new WebhookDispatcher(store, sweeps,
                new TransactionTemplate(new JdbcTransactionManager(dataSource)));
        RecurringTask<Void> dispatch = Tasks.recurring(DISPATCH_TASK, FixedDelay.of(properties.pollInterval()))
                .execute((instance, context) -> dispatcher.dispatch(id ->
                        context.getSchedulerClient().scheduleIfNotExists(deliver.instance(id.toString()), Instant.now())));
        // transaction-aware: a delivery's task is inserted in the dispatcher's transaction (as JobsConfiguration)
        Scheduler scheduler = Scheduler.create(new TransactionAwareDataSourceProxy(dataSource), List.of(deliver))
                .tableName(TABLE)
                .startTasks(dispatch)
                .threads(properties.threads())
                .pollingInterval(properties.pollInterval())
                .shutdownMaxWait(properties.connectTimeout().plus(properties.requestTimeout()))
                .failureLogging(LogLevel.INFO, false)
                .enableImmediateExecution()
                .build();
        return new WebhookWorker(scheduler);
    }
}

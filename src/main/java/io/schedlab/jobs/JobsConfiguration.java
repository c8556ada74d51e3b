package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.stats.StatsRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.schedlab.engine.Engine;
import io.schedlab.engine.spec.Limits;
import io.schedlab.experiments.ExperimentLifecycle;
import io.schedlab.experiments.QuotaProperties;
import io.schedlab.jobs.metrics.JobMetrics;
import java.nio.file.Path;
import java.sql.DatabaseMetaData;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Wires db-scheduler from {@code schedlab.jobs.*} (the starter's {@code db-scheduler.*} properties
 * are not used: this Scheduler bean replaces the starter's). Mapping: threads = workers,
 * heartbeat-interval, missed-heartbeats-limit = missed-heartbeats, polling-interval, immediate
 * execution on, polling strategy lock-and-fetch on PostgreSQL and fetch elsewhere (H2), task data
 * = the experiment id as text, completion by {@link SimulationTask} (the final write removes the job). The starter's health indicator and Micrometer StatsRegistry stay.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(JobsProperties.class)
class JobsConfiguration {

    static final String TASK_NAME = "simulate-experiment";
    /** db-scheduler polling limits, as fractions of the worker count (PollingStrategyConfig); see scheduler(). */
    static final double LOCK_AND_FETCH_LOWER = 0.5;
    static final double LOCK_AND_FETCH_UPPER = 1.0;
    static final double FETCH_LOWER = 2.0;
    static final double FETCH_UPPER = 6.0;

    @Bean
    JobMetrics jobMetrics(MeterRegistry registry, JobsProperties properties, DataSource dataSource,
            ObjectProvider<Engine> engine) {
        int workers = properties.enabled() ? properties.workers() : 0;
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        JobMetrics metrics = new JobMetrics(registry, () -> DbSchedulerJobQueue.queued(jdbc, TASK_NAME), () -> workers);
        metrics.preRegister(engine.getIfAvailable(Engine::standard).registry().policies().stream()
                .map(io.schedlab.engine.registry.PolicyDescriptor::name).toList());
        return metrics;
    }

    @Bean
    Task<UUID> simulateExperimentTask(ExperimentLifecycle lifecycle, ObjectProvider<SimulationRunner> simulator,
            ObjectProvider<Engine> engine, ObjectProvider<Limits> limits, Environment environment,
            @Value("${schedlab.data-dir:./data}") Path dataDir, JobsProperties properties, JobMetrics metrics,
            WorkerStopSignal stopSignal, DataSource dataSource,
            ObjectProvider<QuotaProperties> quotas) {
        SimulationRunner chosen = simulator.getIfAvailable(() -> engine.getIfAvailable(Engine::standard)::run);
        Limits fallback = limitsFrom(environment);
        // a JDBC transaction, as the lifecycle's own (ExperimentLifecycleService): no Hibernate session per final write
        FinalWrite finalWrite = new FinalWrite(new TransactionTemplate(new JdbcTransactionManager(dataSource)),
                new JdbcTemplate(dataSource));
        RunningQuotaDeferral quota = new RunningQuotaDeferral(lifecycle, new JdbcTemplate(dataSource), TASK_NAME,
                quotas.getIfAvailable(() -> QuotaProperties.NONE).runningRecheck(), properties.pollingInterval());
        SimulationJob job = new SimulationJob(lifecycle, chosen, () -> limits.getIfAvailable(() -> fallback), properties,
                metrics, stopSignal::isStopping, dataDir, finalWrite, quota);
        // the completion comes from the job: removal, nothing (removed with the final state) or, for a job
        // handed back by the running quota, a reschedule
        return new SimulationTask(TASK_NAME, job, new JobFailureHandler(lifecycle));
    }

    @Bean(destroyMethod = "")
    Scheduler scheduler(DataSource dataSource, Task<UUID> simulateExperimentTask, JobsProperties properties,
            ObjectProvider<StatsRegistry> statsRegistry, ReplicaName replicaName) {
        SchedulerBuilder builder = Scheduler.create(transactionAware(dataSource), List.of(simulateExperimentTask))
                .threads(properties.workers())
                .pollingInterval(properties.pollingInterval())
                .heartbeatInterval(properties.heartbeatInterval())
                .missedHeartbeatsLimit(properties.missedHeartbeats())
                .shutdownMaxWait(properties.shutdownMaxWait())
                .schedulerName(new SchedulerName.Fixed(replicaName.name()))
                .serializer(new UuidTextSerializer())
                // JobFailureHandler logs real failures with their stack; a job handed back on shutdown is routine
                .failureLogging(LogLevel.INFO, false);
        if (properties.enabled()) {
            builder.enableImmediateExecution();
        }
        if (isPostgreSql(dataSource)) {
            // SELECT ... FOR UPDATE SKIP LOCKED: replicas never fight over the same jobs. At most `workers`
            // jobs picked (upper limit 1.0): a picked job waiting in memory gets no heartbeat
            // (Scheduler.updateHeartbeats covers running ones only), so one queued behind a long run would be
            // revived elsewhere as dead, and the other replica would sit idle while this one holds it.
            builder.pollUsingLockAndFetch(LOCK_AND_FETCH_LOWER, LOCK_AND_FETCH_UPPER);
        } else {
            // FetchCandidates: a fetched candidate holds nothing until a worker picks it, so the batch may be
            // large; the next fetch starts while every worker still has 2 candidates (lower limit 2.0). With
            // 0.5 / 3.0 a worker waited for each fetch: 25% of the workers' wall time parked on an empty
            // queue in a sweep of 500 small children (JFR, docs/benchmarks.md "Sweeps").
            builder.pollUsingFetch(FETCH_LOWER, FETCH_UPPER);
        }
        statsRegistry.ifAvailable(builder::statsRegistry);
        return builder.build();
    }

    @Bean
    ReplicaName replicaName(JobsProperties properties, Environment environment) {
        return ReplicaName.of(properties.replicaName(), environment.getProperty("server.port", Integer.class, 8080));
    }

    @Bean
    WorkerStopSignal workerStopSignal() {
        return new WorkerStopSignal();
    }

    @Bean
    WorkerLifecycle workerLifecycle(Scheduler scheduler, JobsProperties properties, WorkerStopSignal stopSignal) {
        return new WorkerLifecycle(scheduler, properties.enabled(), stopSignal);
    }

    @Bean
    DbSchedulerJobQueue jobQueue(Scheduler scheduler, Task<UUID> simulateExperimentTask, DataSource dataSource,
            JobsProperties properties, ExperimentLifecycle lifecycle, JobMetrics metrics) {
        return new DbSchedulerJobQueue(scheduler, simulateExperimentTask, new JdbcTemplate(dataSource),
                properties.enabled(), lifecycle, metrics);
    }

    private static DataSource transactionAware(DataSource dataSource) {
        return dataSource instanceof TransactionAwareDataSourceProxy ? dataSource
                : new TransactionAwareDataSourceProxy(dataSource);
    }

    static boolean isPostgreSql(DataSource dataSource) {
        try {
            String product = JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName);
            return "PostgreSQL".equalsIgnoreCase(product);
        } catch (MetaDataAccessException e) {
            throw new IllegalStateException("cannot read the database product name", e);
        }
    }

    /** The run limits from {@code schedlab.limits.*} (defaults as in SERVICE-CONTRACTS.md), unless a Limits bean exists. */
    static Limits limitsFrom(Environment env) {
        return new Limits(env.getProperty("schedlab.limits.max-pcpus", Integer.class, 256),
                env.getProperty("schedlab.limits.max-vcpus", Integer.class, 2048),
                env.getProperty("schedlab.limits.max-vms", Integer.class, 512),
                env.getProperty("schedlab.limits.max-duration-seconds", Double.class, 3600.0),
                env.getProperty("schedlab.limits.max-events", Long.class, 500_000_000L),
                env.getProperty("schedlab.limits.max-timeline-actions", Integer.class, 1000),
                env.getProperty("schedlab.limits.max-trace-events", Long.class, 1_000_000L));
    }
}

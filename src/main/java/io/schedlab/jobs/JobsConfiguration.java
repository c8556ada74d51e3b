package io.schedlab.jobs;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.ExecutorUtils;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.logging.LogLevel;
import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.stats.StatsRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import io.schedlab.engine.Engine;
import io.schedlab.engine.spec.Limits;
import io.schedlab.experiments.ExperimentLifecycle;
import io.schedlab.experiments.QuotaProperties;
import io.schedlab.jobs.metrics.JobMetrics;
import java.nio.file.Path;
import java.sql.DatabaseMetaData;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
    /** The completion of a picked-ahead job handed back before a worker took it: the row is no longer ours. */
    private static final CompletionHandler<UUID> HANDED_BACK = (complete, operations) -> { };
    /** The {@code name} tag of the worker pool's executor meters. */
    static final String WORKER_POOL = "schedlab.workers";
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
            ObjectProvider<QuotaProperties> quotas, RevivedFirst revivedFirst) {
        SimulationRunner chosen = simulator.getIfAvailable(() -> engine.getIfAvailable(Engine::standard)::run);
        Limits fallback = limitsFrom(environment);
        // a JDBC transaction, as the lifecycle's own (ExperimentLifecycleService): no Hibernate session per final write
        FinalWrite finalWrite = new FinalWrite(new TransactionTemplate(new JdbcTransactionManager(dataSource)),
                new JdbcTemplate(dataSource), stopSignal::isStopping, FinalWrite.MAX_WAIT);
        RunningQuotaDeferral quota = new RunningQuotaDeferral(lifecycle, new JdbcTemplate(dataSource), TASK_NAME,
                quotas.getIfAvailable(() -> QuotaProperties.NONE).runningRecheck(), properties.pollingInterval());
        SimulationJob job = new SimulationJob(lifecycle, chosen, () -> limits.getIfAvailable(() -> fallback), properties,
                metrics, stopSignal::isStopping, dataDir, finalWrite, quota);
        // the completion comes from the job: removal, nothing (removed with the final state) or, for a job
        // handed back by the running quota, a reschedule
        return new SimulationTask(TASK_NAME, job, new JobFailureHandler(lifecycle), revivedFirst);
    }

    /** Whether the jobs' database is PostgreSQL, read once from its metadata for every bean that depends on it. */
    record JobsDatabase(boolean postgreSql) {
    }

    @Bean
    JobsDatabase jobsDatabase(DataSource dataSource) {
        return new JobsDatabase(isPostgreSql(dataSource));
    }

    @Bean
    PickedAhead pickedAhead(DataSource dataSource, JobsProperties properties) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        // handed-back jobs: wake the replicas, an idle one takes them at once
        Runnable handedBack = properties.replicaWakeUps() ? () -> ReplicaWakeUps.notifyReplicas(jdbc) : () -> { };
        return new PickedAhead(jdbc, properties.heartbeatInterval(), System::nanoTime, handedBack);
    }

    @Bean
    UnbrokenDeadChecks unbrokenDeadChecks(JobsProperties properties) {
        return new UnbrokenDeadChecks(UnbrokenDeadChecks.gapAfter(properties.heartbeatInterval()), System::nanoTime);
    }

    @Bean
    RevivedFirst revivedFirst(DataSource dataSource, JobsProperties properties, JobsDatabase database,
            ReplicaName replicaName, UnbrokenDeadChecks checks) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        // a job handed back behind a revived one: wake the replicas (PostgreSQL), an idle one takes it at once
        Runnable handedBack = database.postgreSql() && properties.replicaWakeUps()
                ? () -> ReplicaWakeUps.notifyReplicas(jdbc) : () -> { };
        return new RevivedFirst(jdbc, TASK_NAME, replicaName.name(), RevivedFirst.FORGET_AFTER, System::nanoTime,
                handedBack, checks.watchedFor(properties.heartbeatInterval().multipliedBy(properties.missedHeartbeats())));
    }

    @Bean(destroyMethod = "")
    Scheduler scheduler(DataSource dataSource, Task<UUID> simulateExperimentTask, JobsProperties properties,
            ObjectProvider<StatsRegistry> statsRegistry, ReplicaName replicaName, PickedAhead pickedAhead,
            MeterRegistry meterRegistry, JobsDatabase database, RevivedFirst revivedFirst,
            UnbrokenDeadChecks unbrokenDeadChecks) {
        SchedulerBuilder builder = Scheduler.create(transactionAware(dataSource), List.of(simulateExperimentTask))
                .threads(properties.workers())
                .executorService(monitoredWorkerPool(properties.workers(), meterRegistry))
                .pollingInterval(properties.pollingInterval())
                .heartbeatInterval(properties.heartbeatInterval())
                .missedHeartbeatsLimit(properties.missedHeartbeats())
                .shutdownMaxWait(properties.shutdownMaxWait())
                .schedulerName(new SchedulerName.Fixed(replicaName.name()))
                .serializer(new UuidTextSerializer())
                // JobFailureHandler logs real failures with their stack; a job handed back on shutdown is routine
                .failureLogging(LogLevel.INFO, false)
                .addSchedulerListener(unbrokenDeadChecks);
        if (properties.enabled()) {
            builder.enableImmediateExecution();
        }
        if (database.postgreSql()) {
            // SELECT ... FOR UPDATE SKIP LOCKED: replicas never fight over the same jobs. With pick-ahead a job
            // may wait for a worker here; PickedAhead hands it back if it waits longer than a heartbeat interval
            // (db-scheduler beats only for running executions), and the copy still queued here is not run (the
            // job runs wherever it is picked next).
            int workers = properties.workers();
            int pickAhead = properties.pickAhead();
            if (pickAhead > 0) {
                builder.jdbcCustomization(new PickRecordingPostgreSql(pickedAhead))
                        .addExecutionInterceptor((instance, context, chain) ->
                                pickedAhead.claimForStart(context.getExecution()) ? chain.proceed(instance, context)
                                        : HANDED_BACK)
                        .pollUsingLockAndFetch(pickAheadLowerLimit(workers, pickAhead), 1.0 + pickAhead);
            } else {
                // a freed worker waits for the next fetch (docs/benchmarks.md "Sweeps")
                builder.pollUsingLockAndFetch(LOCK_AND_FETCH_LOWER, LOCK_AND_FETCH_UPPER);
            }
        } else {
            // FetchCandidates: a fetched candidate holds nothing until a worker picks it, so the batch may be
            // large; the next fetch starts while every worker still has 2 candidates (lower limit 2.0). With
            // 0.5 / 3.0 a worker waited for each fetch: 25% of the workers' wall time parked on an empty
            // queue in a sweep of 500 small children (JFR, docs/benchmarks.md "Sweeps").
            builder.pollUsingFetch(FETCH_LOWER, FETCH_UPPER);
        }
        // after pick-ahead's claim: a job revived from a dead process starts before newer ones already in this
        // process's worker queue
        builder.addExecutionInterceptor((instance, context, chain) ->
                revivedFirst.mayStart(context.getExecution()) ? chain.proceed(instance, context) : HANDED_BACK);
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
    WorkerLifecycle workerLifecycle(Scheduler scheduler, JobsProperties properties, WorkerStopSignal stopSignal,
            PickedAhead pickedAhead, DataSource dataSource, JobsDatabase database) {
        boolean postgres = database.postgreSql();
        boolean handsBack = properties.pickAhead() > 0 && postgres;
        ReplicaWakeUps wakeUps = postgres && properties.replicaWakeUps()
                ? new ReplicaWakeUps(dataSource, scheduler::triggerCheckForDueExecutions) : null;
        return new WorkerLifecycle(scheduler, properties.enabled(), stopSignal, handsBack ? pickedAhead : null,
                wakeUps);
    }

    @Bean
    DbSchedulerJobQueue jobQueue(Scheduler scheduler, Task<UUID> simulateExperimentTask, DataSource dataSource,
            JobsProperties properties, ExperimentLifecycle lifecycle, JobMetrics metrics, JobsDatabase database) {
        return new DbSchedulerJobQueue(scheduler, simulateExperimentTask, new JdbcTemplate(dataSource),
                properties.enabled(), lifecycle, metrics, database.postgreSql() && properties.replicaWakeUps());
    }

    /**
     * db-scheduler's worker pool as it builds it (fixed size, its thread names), timed by Micrometer's
     * {@link ExecutorServiceMetrics}: {@code executor} (time running tasks: the job and its completion, on H2 also the pick) and
     * {@code executor.idle} (time queued) tagged {@code name=} {@value #WORKER_POOL}, with the pool's
     * active, queued and completed gauges: the pool's use is the timer's total time over workers x time.
     */
    private static ExecutorService monitoredWorkerPool(int workers, MeterRegistry registry) {
        ExecutorService pool = Executors.newFixedThreadPool(workers,
                ExecutorUtils.defaultThreadFactoryWithPrefix(Scheduler.THREAD_PREFIX + "-"));
        return ExecutorServiceMetrics.monitor(registry, pool, WORKER_POOL);
    }

    /**
     * Lock-and-fetch's lower limit with pick-ahead, as a fraction of the workers: one job below the upper
     * limit, so every job that ends tops the held jobs up again (LockAndFetchCandidates' after-done callback
     * fetches when the jobs held are down to the lower limit and the last fetch came back full);
     * PollingStrategyConfig truncates fraction x workers, hence the small margin.
     */
    static double pickAheadLowerLimit(int workers, int pickAhead) {
        return 1.0 + pickAhead - 1.0 / workers + 1e-9;
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
        return new Limits(env.getProperty("schedlab.limits.max-pcpus", Integer.class, 1024),
                env.getProperty("schedlab.limits.max-vcpus", Integer.class, 8192),
                env.getProperty("schedlab.limits.max-vms", Integer.class, 512),
                env.getProperty("schedlab.limits.max-duration-seconds", Double.class, 3600.0),
                env.getProperty("schedlab.limits.max-events", Long.class, 500_000_000L),
                env.getProperty("schedlab.limits.max-timeline-actions", Integer.class, 1000),
                env.getProperty("schedlab.limits.max-trace-events", Long.class, 1_000_000L));
    }
}

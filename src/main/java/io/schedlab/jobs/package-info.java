/**
 * Jobs: the persistent simulation queue on db-scheduler (table {@code scheduled_tasks}, Flyway V2)
 * and the worker side: {@link DbSchedulerJobQueue} implements the experiments'
 * {@link io.schedlab.experiments.JobQueue} (so experiments never depend on jobs); a job moves its
 * experiment through {@link io.schedlab.experiments.ExperimentLifecycle} and runs the engine under a run control that throttles progress, polls cancel, and enforces the timeout.
 */
package io.schedlab.jobs;

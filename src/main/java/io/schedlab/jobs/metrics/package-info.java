/**
 * Queue and run meters of the jobs feature (names as in coord/SERVICE-CONTRACTS.md "Metrics"):
 * finished experiments, queue depth and wait, run time, simulated work and speed, worker pool.
 */
package io.schedlab.jobs.metrics;

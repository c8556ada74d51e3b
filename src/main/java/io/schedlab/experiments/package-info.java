/**
 * Experiments feature: submit (validate with the engine, persist, enqueue), read, list and cancel
 * experiments, and the {@link io.schedlab.experiments.ExperimentLifecycle} transitions jobs make.
 * Domain exceptions here know nothing of HTTP; {@code io.schedlab.web} maps them to problem details.
 */
package io.schedlab.experiments;

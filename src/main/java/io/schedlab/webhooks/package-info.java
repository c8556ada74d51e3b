/**
 * Completion webhooks: an experiment or sweep submitted with {@code notify.url} is posted a signed
 * CloudEvents 1.0 event once it has finished. The notify target is recorded with the submission
 * ({@link io.schedlab.experiments.NotifyTargets}); a recurring db-scheduler task turns finished
 * subjects into deliveries, and a one-time db-scheduler task per delivery posts it with retries and
 * exponential backoff, each attempt kept in the delivery log. The tasks live in their own
 * db-scheduler table and threads, so a delivery never waits for a simulation worker.
 */
package io.schedlab.webhooks;

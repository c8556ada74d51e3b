/**
 * Experiment rows (JPA entity, repository, light list rows): input as sent and normalized, status,
 * result document as JSON ({@code jsonb} on PostgreSQL) with summary columns. Schema in Flyway V1.
 */
package io.schedlab.experiments.persistence;

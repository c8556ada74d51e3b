/**
 * Object-level access: the one rule that decides whether a caller may read or change an object
 * (experiment, sweep, their results, tables, reports, traces and idempotency records) owned by an
 * API key. Features ask {@link io.schedlab.access.CallerAccess}; the web edge provides it.
 */
package io.schedlab.access;

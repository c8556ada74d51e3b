/**
 * Sweeps: one submission that expands a base experiment over axes (JSON-pointer values or named
 * JSON merge patches) and repetitions into ordinary child experiments on the shared job queue,
 * and tabulates chosen result metrics per cell (mean, sd, 95% CI, min, max, % vs a baseline).
 * Knows no HTTP; the API is in {@code web}, the SQL in {@code persistence}.
 */
package io.schedlab.sweeps;

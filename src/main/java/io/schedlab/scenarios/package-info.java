/**
 * The published experiments E1..E5 over the API: their description and published numbers, and
 * each of their tables as a sweep definition that {@code POST /api/v1/sweeps} takes. The tables
 * are the engine's built-in scenarios ({@code io.schedlab.engine.catalogue}), described here.
 */
package io.schedlab.scenarios;

/**
 * Calibration knobs: the defaults no public source confirms (marked UNVERIFIED where they are declared), one
 * registry of them ({@link io.schedlab.engine.knobs.KnobRegistry}) and immutable sets of overrides
 * ({@link io.schedlab.engine.knobs.KnobSet}) that a run applies to its input, so a calibration changes no
 * shared state.
 */
package io.schedlab.engine.knobs;

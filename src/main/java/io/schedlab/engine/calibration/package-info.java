/**
 * Calibration of the knobs ({@link io.schedlab.engine.knobs}) against the validation catalogue: how far each
 * scored cell's effect lies from its band ({@link io.schedlab.engine.calibration.BandDistance}), what halving and
 * doubling each knob moves ({@link io.schedlab.engine.calibration.Sensitivity}), and a joint fit of the knobs
 * with BOBYQA ({@link io.schedlab.engine.calibration.KnobFit}).
 */
package io.schedlab.engine.calibration;

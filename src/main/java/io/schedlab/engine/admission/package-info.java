/**
 * Admission: what a normalized experiment will cost (events, heap) before it runs, so a service
 * can refuse runs that would hold a worker for hours or exhaust its heap. Plain Java.
 */
package io.schedlab.engine.admission;

/** Conversions of the engine's event trace ({@code time_ns,pcpu,event,vm,vcpu}) into viewer formats. */
package io.schedlab.engine.trace;

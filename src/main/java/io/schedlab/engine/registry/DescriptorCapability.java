package io.schedlab.engine.registry;

/** Marker of an optional capability a policy's descriptor carries (found with {@link PolicyDescriptor#capability}). */
public interface DescriptorCapability {
}

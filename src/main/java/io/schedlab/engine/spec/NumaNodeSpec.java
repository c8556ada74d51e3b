package io.schedlab.engine.spec;

import java.util.List;

/** One NUMA node: the sockets it spans, its memory size and its local memory bandwidth. */
public record NumaNodeSpec(List<Integer> sockets, Integer memoryMb, Double bandwidthMBps) {
}

package io.schedlab.engine.workloads;

import java.util.List;

/**
 * One rt-app task object: {@code instances} threads run its phases in order, each phase {@code loop} times, the
 * whole list {@code loop} times ({@code -1} = forever), after an initial {@code delayNanos}.
 */
record RtAppTask(String name, int instances, long delayNanos, long loop, List<RtAppPhase> phases,
        int uniqueTimers) {

    /** The name its {@code i}-th thread reports under: the task's, with {@code -i} when it has several instances. */
    String threadName(int i) {
        return instances == 1 ? name : name + "-" + i;
    }

    /** One phase: its events in document order, run {@code loop} times ({@code -1} = forever) before the next. */
    record RtAppPhase(long loop, List<RtAppEvent> events) {
    }
}

package io.schedlab.engine.run;

import io.schedlab.engine.recording.TraceSink;

/** How a caller watches and stops a run: progress reports (throttled by the caller), cancellation, trace sink. */
public interface RunControl {

    /** Called periodically by the engine (every few thousand events); cheap implementations only. */
    void progress(double fraction, long simulatedNanos, long eventsProcessed);

    /** Polled by the engine together with {@link #progress}; true stops the run with {@link RunCancelledException}. */
    boolean cancelRequested();

    /** Where trace records go when the experiment enables tracing. */
    default TraceSink traceSink() {
        return TraceSink.NONE;
    }

    /** A control that never cancels, ignores progress and sends trace records to {@code sink}. */
    static RunControl tracingTo(TraceSink sink) {
        return new RunControl() {
            @Override
            public void progress(double fraction, long simulatedNanos, long eventsProcessed) {
            }

            @Override
            public boolean cancelRequested() {
                return false;
            }

            @Override
            public TraceSink traceSink() {
                return sink;
            }
        };
    }

    /** A control that never cancels and ignores progress. */
    RunControl NONE = new RunControl() {
        @Override
        public void progress(double fraction, long simulatedNanos, long eventsProcessed) {
        }

        @Override
        public boolean cancelRequested() {
            return false;
        }
    };
}

package io.schedlab.experiments.web;

import io.schedlab.experiments.Experiment;
import io.schedlab.experiments.ExperimentNotFoundException;
import io.schedlab.experiments.ExperimentService;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import io.schedlab.web.TooManyStreamsException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Server-sent progress of experiments: one daemon thread reads each open stream's experiment every
 * {@code poll} (the job writes progress at most every ~500 ms anyway) and sends a {@code status}
 * event when status, progress or simulated time changed; the stream ends after the finished status.
 * Open streams are bounded ({@code schedlab.limits.max-event-streams}) and each lives at most
 * {@code schedlab.limits.max-event-stream-duration}.
 */
@Component
class ProgressStreams {

    private final ExperimentService experiments;
    private final int maxStreams;
    private final Duration maxDuration;
    private final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "experiment-events");
        t.setDaemon(true);
        return t;
    });
    private final Map<Long, Stream> open = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    ProgressStreams(ExperimentService experiments,
            @Value("${schedlab.limits.max-event-streams:100}") int maxStreams,
            @Value("${schedlab.limits.max-event-stream-duration:30m}") Duration maxDuration,
            @Value("${schedlab.limits.event-poll-interval:500ms}") Duration poll) {
        this.experiments = experiments;
        this.maxStreams = maxStreams;
        this.maxDuration = maxDuration;
        long every = Math.max(10, poll.toMillis());
        poller.scheduleWithFixedDelay(this::pollAll, every, every, TimeUnit.MILLISECONDS);
    }

    /** Opens a stream for an existing experiment; sends its current status at once. */
    SseEmitter open(UUID id) {
        Experiment first = experiments.get(id); // 404 before anything is streamed
        if (open.size() >= maxStreams) {
            throw new TooManyStreamsException(maxStreams);
        }
        SseEmitter emitter = new SseEmitter(maxDuration.toMillis());
        long key = ids.incrementAndGet();
        Stream stream = new Stream(id, emitter);
        emitter.onCompletion(() -> open.remove(key));
        emitter.onTimeout(() -> {
            open.remove(key);
            emitter.complete();
        });
        emitter.onError(e -> open.remove(key));
        // the first state goes out before the poller can see the stream, so events stay in order
        if (stream.sendIfChanged(first)) {
            open.put(key, stream);
        }
        return emitter;
    }

    int openStreams() {
        return open.size();
    }

    private void pollAll() {
        try {
            pollEach();
        } catch (Throwable t) {
            // never let the scheduled task die: that would freeze every open stream
        }
    }

    private void pollEach() {
        open.forEach((key, stream) -> {
            try {
                if (!stream.sendIfChanged(experiments.get(stream.id))) {
                    open.remove(key);
                }
            } catch (ExperimentNotFoundException gone) {
                open.remove(key);
                stream.emitter.complete();
            } catch (RuntimeException e) {
                // a database blip: try again at the next poll
            }
        });
    }

    @PreDestroy
    void close() {
        poller.shutdownNow();
        open.values().forEach(s -> s.emitter.complete());
        open.clear();
    }

    /** One client's stream and the last state it was sent. */
    private static final class Stream {
        private final UUID id;
        private final SseEmitter emitter;
        private String lastKey;

        Stream(UUID id, SseEmitter emitter) {
            this.id = id;
            this.emitter = emitter;
        }

        /** Sends the experiment if it changed; false once the stream is over (finished or client gone). */
        synchronized boolean sendIfChanged(Experiment e) {
            ExperimentStatusEvent event = ExperimentStatusEvent.of(e);
            if (Objects.equals(event.id(), lastKey)) {
                return true;
            }
            lastKey = event.id();
            try {
                emitter.send(SseEmitter.event().name(event.event()).id(event.id())
                        .data(event.data(), MediaType.APPLICATION_JSON));
                if (e.status().finished()) {
                    emitter.complete();
                    return false;
                }
                return true;
            } catch (IOException | IllegalStateException gone) {
                emitter.completeWithError(gone);
                return false;
            }
        }
    }
}

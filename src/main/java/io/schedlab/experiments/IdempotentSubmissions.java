package io.schedlab.experiments;

import io.schedlab.access.CallerAccessProvider;
import io.schedlab.experiments.persistence.IdempotencyKeys;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.stereotype.Component;

/**
 * The Idempotency-Key of every submitting operation (IETF httpapi draft "The Idempotency-Key HTTP
 * Header Field", draft-ietf-httpapi-idempotency-key-header): the first request with a key stores
 * the key, its operation, the body's fingerprint and the ids it created in the submission's own
 * transaction; a later request with the same key, operation and body replays the answer for those
 * ids; with another body or operation it is refused ({@link IdempotencyKeyReusedException}, 422);
 * one arriving while the first is still being stored is a conflict ({@link
 * IdempotencyConflictException}, 409). Keys are per API key (owner) and expire after
 * {@code schedlab.idempotency.ttl}.
 */
@Component
public class IdempotentSubmissions {

    private static final Duration PURGE_EVERY = Duration.ofMinutes(10);

    private final IdempotencyKeys keys;
    private final Duration ttl;
    private CallerAccessProvider access = CallerAccessProvider.OPEN;
    /** (owner, key) pairs being submitted by this process: a concurrent duplicate is 409 at once. */
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicLong lastPurgeNanos = new AtomicLong(System.nanoTime());

    public IdempotentSubmissions(IdempotencyKeys keys, @Value("${schedlab.idempotency.ttl:24h}") Duration ttl) {
        this.keys = keys;
        this.ttl = ttl;
    }

    /** Who is asking: keys are scoped to the caller's API key (no keys: one shared scope). */
    @Autowired(required = false)
    void setAccessProvider(CallerAccessProvider access) {
        this.access = access;
    }

    /** An answer, and whether it replays an earlier request with the same key. */
    public record Answer<T>(T value, boolean replayed) {
    }

    /**
     * Runs {@code submit} once per (caller, key). {@code submit} gets a recorder to call inside its
     * submission transaction with the ids it creates; {@code replay} rebuilds the answer from them.
     * Without a key (null) it just submits.
     *
     * @param operation what is submitted (an operationId, with any path parameter that changes it)
     * @param body      the request body as sent (its SHA-256 is the fingerprint)
     */
    public <T> Answer<T> submit(String operation, byte[] body, String idempotencyKey,
            Function<Consumer<List<UUID>>, T> submit, Function<List<UUID>, T> replay) {
        if (idempotencyKey == null) {
            return new Answer<>(submit.apply(ids -> { }), false);
        }
        String key = IdempotencyRules.check(idempotencyKey);
        String owner = access.current().owner() == null ? "" : access.current().owner();
        String fingerprint = IdempotencyRules.fingerprint(body);
        String slot = owner + "\n" + key;
        if (!inFlight.add(slot)) {
            throw new IdempotencyConflictException(key);
        }
        try {
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
            Instant expired = now.minus(ttl);
            Optional<IdempotencyKeys.Entry> earlier = keys.find(owner, key, expired);
            if (earlier.isPresent()) {
                return replay(earlier.get(), operation, fingerprint, key, replay);
            }
            purgeExpiredKeys(expired);
            try {
                return new Answer<>(submit.apply(ids -> keys.insert(owner, key,
                        new IdempotencyKeys.Entry(operation, fingerprint, ids), now, expired)), false);
            } catch (DataIntegrityViolationException | PessimisticLockingFailureException raced) {
                // another replica stored the same key meanwhile: replay it, or it is still in flight
                return keys.find(owner, key, expired).map(e -> replay(e, operation, fingerprint, key, replay))
                        .orElseThrow(() -> new IdempotencyConflictException(key));
            }
        } finally {
            inFlight.remove(slot);
        }
    }

    private static <T> Answer<T> replay(IdempotencyKeys.Entry earlier, String operation, String fingerprint,
            String key, Function<List<UUID>, T> replay) {
        if (!earlier.operation().equals(operation)) {
            throw new IdempotencyKeyReusedException(key, "with another operation (" + earlier.operation() + ")");
        }
        if (!earlier.bodySha256().equals(fingerprint)) {
            throw new IdempotencyKeyReusedException(key, "with a different request body");
        }
        return new Answer<>(replay.apply(earlier.resourceIds()), true);
    }

    /** Deletes expired keys at most every 10 minutes, on a daemon thread. */
    private void purgeExpiredKeys(Instant expired) {
        long last = lastPurgeNanos.get();
        if (System.nanoTime() - last > PURGE_EVERY.toNanos() && lastPurgeNanos.compareAndSet(last, System.nanoTime())) {
            Thread t = new Thread(() -> keys.purge(expired), "idempotency-key-purge");
            t.setDaemon(true);
            t.start();
        }
    }
}

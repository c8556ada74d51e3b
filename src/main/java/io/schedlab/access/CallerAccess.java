package io.schedlab.access;

import java.util.Objects;

/**
 * What the caller being served may do with objects owned by API keys. {@code owner} is the caller's
 * API key name, stored with everything it submits. The rule, for every kind of object: a caller reads
 * an object it owns, or any when {@code readsAll} (admin keys; reader keys unless
 * {@code schedlab.auth.readers-see} is {@code own}); it changes (cancels, deletes) an object it owns
 * when {@code writes}, or any when {@code changesAll} (admin keys). An object the caller may not read
 * is "not found" to it, so ids of others' work are not even confirmed. Without API keys everyone may
 * do everything ({@link #OPEN}).
 *
 * @param owner      the caller's API key name; null without keys
 * @param readsAll   reads every owner's objects
 * @param changesAll changes every owner's objects
 * @param writes     may submit and change its own objects (false for reader keys)
 */
public record CallerAccess(String owner, boolean readsAll, boolean changesAll, boolean writes) {

    /** No API keys configured: no owner, everything visible and changeable. */
    public static final CallerAccess OPEN = new CallerAccess(null, true, true, true);

    /** True when this caller may read an object owned by {@code rowOwner}. */
    public boolean mayRead(String rowOwner) {
        return readsAll || owns(rowOwner);
    }

    /** True when this caller may cancel or delete an object owned by {@code rowOwner}. */
    public boolean mayChange(String rowOwner) {
        return changesAll || (writes && owns(rowOwner));
    }

    /**
     * Throws {@link NotAllowedException} unless this caller may change an object owned by
     * {@code rowOwner}; {@code object} names it in the message ("sweep 5f1c...").
     */
    public void requireChange(String rowOwner, String object) {
        if (!mayChange(rowOwner)) {
            throw new NotAllowedException("API key '" + owner + "' may read " + object
                    + " but not cancel or delete it (only its owner or an admin key may)");
        }
    }

    /** The owner to filter lists by: null when the caller reads everyone's objects. */
    public String listOwner() {
        return readsAll ? null : owner;
    }

    private boolean owns(String rowOwner) {
        return owner != null && Objects.equals(owner, rowOwner);
    }
}

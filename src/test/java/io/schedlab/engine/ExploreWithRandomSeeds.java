package io.schedlab.engine;

import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyAttributes;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Properties run with the seed pinned in their {@code @Property}, so a build fails only on a change,
 * never on a newly drawn counterexample. With {@code -Dproperties.explore=true} each property of a
 * class carrying this hook draws a random seed instead and runs {@code -Dproperties.tries} tries
 * (default ten times its pinned tries); jqwik reports the seed of any failure.
 */
public final class ExploreWithRandomSeeds implements AroundPropertyHook {
    /** System property switching every hooked property to random seeds. */
    public static final String EXPLORE = "properties.explore";
    /** System property: tries per property while exploring. */
    public static final String TRIES = "properties.tries";
    /** Tries while exploring, as a multiple of the pinned tries, unless {@link #TRIES} is given. */
    private static final int TRIES_FACTOR = 10;

    /** Registered on a test class, the hook reaches every property of it. */
    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    /** Properties only: an {@code @Example} keeps its one fixed case. */
    @Override
    public boolean appliesTo(Optional<AnnotatedElement> element) {
        return element.map(e -> e.isAnnotationPresent(Property.class)).orElse(false);
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        if (Boolean.getBoolean(EXPLORE)) {
            PropertyAttributes attributes = context.attributes();
            attributes.setSeed(""); // jqwik's "not set": a fresh random seed
            attributes.setTries(Integer.getInteger(TRIES, TRIES_FACTOR * attributes.tries().orElse(1000)));
        }
        return property.execute();
    }
}

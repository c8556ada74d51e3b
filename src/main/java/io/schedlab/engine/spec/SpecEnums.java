package io.schedlab.engine.spec;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** JSON spelling of spec enums: lower-case kebab on output, any case and '-' or '_' on input. */
final class SpecEnums {
    private SpecEnums() {
    }

    static String toJson(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static <E extends Enum<E>> E fromJson(Class<E> type, String value) {
        if (value == null) {
            return null;
        }
        String key = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(key)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown value '" + value + "', expected one of "
                + Arrays.stream(type.getEnumConstants()).map(SpecEnums::toJson).collect(Collectors.joining(", ")));
    }
}

package io.volumizer.api.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Query parameters read strictly: an unknown or repeated parameter is a 400 naming it, so a typo ("limt=5") is
 * an error rather than silently ignored.
 */
public final class QueryParameters {

    private final Map<String, List<String>> values;

    public QueryParameters(Map<String, List<String>> values, Set<String> allowed) {
        for (Map.Entry<String, List<String>> parameter : values.entrySet()) {
            if (!allowed.contains(parameter.getKey())) {
                throw ApiException.badRequest(parameter.getKey(), "unknown parameter '" + parameter.getKey()
                        + "'; allowed: " + String.join(", ", allowed.stream().sorted().toList()));
            }
            if (parameter.getValue().size() > 1) {
                throw ApiException.badRequest(parameter.getKey(), "parameter '" + parameter.getKey() + "' given "
                        + parameter.getValue().size() + " times");
            }
        }
        this.values = values;
    }

    /** The value, or null when absent or empty. */
    public String get(String name) {
        List<String> value = values.get(name);
        return value == null || value.isEmpty() || value.get(0).isEmpty() ? null : value.get(0);
    }

    public int integer(String name, int defaultValue, int min, int max) {
        String value = get(name);
        if (value == null) {
            return defaultValue;
        }
        int parsed;
        try {
            parsed = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(name, name + " must be an integer, was '" + value + "'");
        }
        if (parsed < min || parsed > max) {
            throw ApiException.badRequest(name, name + " must be between " + min + " and " + max + ", was " + parsed);
        }
        return parsed;
    }

    public boolean bool(String name) {
        String value = get(name);
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw ApiException.badRequest(name, name + " must be true or false, was '" + value + "'");
    }

    public <E extends Enum<E>> E choice(String name, Class<E> type, E defaultValue) {
        String value = get(name);
        if (value == null) {
            return defaultValue;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.toString().equals(value)) {
                return constant;
            }
        }
        throw ApiException.badRequest(name, name + " must be one of " + List.of(type.getEnumConstants()) + ", was '"
                + value + "'");
    }
}

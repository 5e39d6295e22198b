package io.volumizer.options.conventions;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.BiPredicate;
import java.util.regex.Pattern;

/**
 * Groups of the API's routes, as its request metrics label them (method and route template): what a latency
 * target is about ({@code bin/volumizer throttle import --hold-p95 50ms --route navigation}).
 */
public enum ApiRouteGroup {

    /** Reading a document, its children, its ancestors and its blob: a user browsing the tree. */
    NAVIGATION((method, route) -> method.equals("GET")
            && Pattern.matches(".*/documents/\\{id}(/children|/ancestors|/blob)?", route)),
    /** Searches, of one repository or all. */
    SEARCH((method, route) -> method.equals("GET") && route.endsWith("/search")),
    /** Both. */
    READS((method, route) -> NAVIGATION.matches(method, route) || SEARCH.matches(method, route));

    private final BiPredicate<String, String> matches;

    ApiRouteGroup(BiPredicate<String, String> matches) {
        this.matches = matches;
    }

    /** Whether a request of {@code method} on the route template {@code route} is in the group. */
    public boolean matches(String method, String route) {
        return matches.test(method, route);
    }

    /** The group as users name it: {@code navigation}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException naming the groups there are */
    public static ApiRouteGroup named(String id) {
        return Arrays.stream(values()).filter(group -> group.id().equals(id)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("unknown route group '" + id + "'; groups: "
                        + Arrays.stream(values()).map(ApiRouteGroup::id).toList()));
    }
}

package io.volumizer.api.reads;

import java.util.Set;

/** Who reads: the principals (a user, the groups it is in) that a document's permissions name. */
public record Caller(Set<String> principals) {

    /** The principal of every caller, authenticated or not. */
    public static final String EVERYONE = "Everyone";

    /** A caller nobody authenticated; the API authenticates no reader yet, so this is every caller. */
    public static final Caller ANONYMOUS = new Caller(Set.of(EVERYONE));

    public Caller {
        principals = Set.copyOf(principals);
    }
}

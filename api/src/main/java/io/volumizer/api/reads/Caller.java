package io.volumizer.api.reads;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

import io.javalin.http.Context;
import io.volumizer.generators.BankPrincipals;
import io.volumizer.schemas.acl.Principals;

/**
 * Who asks, as its token said: its user name, the principals a document's permissions may name (that name, its
 * groups, {@link Principals#EVERYONE}), and whether it is an administrator (in {@link Principals#ADMINISTRATORS}:
 * administrators bypass every ACL). The authentication puts it on the request ({@link #attachTo}); the routes read
 * it from there ({@link #of}).
 */
public record Caller(String name, Set<String> principals, boolean administrator) {

    private static final String ATTRIBUTE = "volumizer.caller";

    public Caller {
        principals = Set.copyOf(principals);
    }

    /** The caller named {@code name}, a member of {@code groups}. */
    public static Caller of(String name, Collection<String> groups) {
        Set<String> principals = new LinkedHashSet<>();
        // Users and groups share the ACLs' names: a user called like a group (the system's, or the bank's) must not
        // hold what the group holds.
        if (!Principals.EVERYONE.equals(name) && !Principals.ADMINISTRATORS.equals(name) && !BankPrincipals.isGroup(name)) {
            principals.add(name);
        }
        principals.addAll(groups);
        principals.add(Principals.EVERYONE);
        return new Caller(name, principals, groups.contains(Principals.ADMINISTRATORS));
    }

    public void attachTo(Context ctx) {
        ctx.attribute(ATTRIBUTE, this);
    }

    /** The request's caller; every route but the open ones is authenticated before its handler runs. */
    public static Caller of(Context ctx) {
        Caller caller = ctx.attribute(ATTRIBUTE);
        if (caller == null) {
            throw new IllegalStateException(ctx.method() + " " + ctx.path() + " reached its handler unauthenticated");
        }
        return caller;
    }
}

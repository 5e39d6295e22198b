package io.volumizer.loadtest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.volumizer.generators.BankPrincipals;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.model.BankModel;
import io.volumizer.ops.identity.DemoRealm;
import io.volumizer.ops.identity.TokenClient;
import io.volumizer.schemas.acl.Principals;

/**
 * The demo realm's users a load test runs as, each logged in once before the run (password grant): every branch's
 * staff, the auditors, and the customers' users whose customer the run has. A user's principals are what its token
 * names (its name, its groups, {@link Principals#EVERYONE}), which the answers are checked against.
 */
public final class LoadUsers {

    /** What a user is to the bank, which decides what it may touch. */
    public enum Kind {
        /** Writes its branch's state: navigates, searches and edits its customers. */
        STAFF,
        /** Reads its own folder: navigates and searches it. */
        CUSTOMER,
        /** Reads the archive: searches it. */
        AUDITOR
    }

    /**
     * A demo user of the run.
     *
     * @param stateCode the staff's branch; null for others
     * @param customer  a customer's own index in the run; -1 for others
     */
    public record LoadUser(String name, Kind kind, List<String> principals, String stateCode, long customer, String token) {

        LoadUser withToken(String token) {
            return new LoadUser(name, kind, principals, stateCode, customer, token);
        }
    }

    /** Logins at once: the provider hashes each password, so a few threads keep its cores busy enough. */
    private static final int LOGIN_THREADS = 4;

    private final List<LoadUser> users;
    private final ReadableDocuments readable;

    LoadUsers(List<LoadUser> users, ReadableDocuments readable) {
        this.users = List.copyOf(users);
        this.readable = readable;
    }

    /** The run's users, logged in. */
    public List<LoadUser> users() {
        return users;
    }

    /** Who may read each document of the run, which every answer to these users is checked against. */
    public ReadableDocuments readable() {
        return readable;
    }

    /** The run's users, each logged in once at the load test's identity provider, before any request. */
    public static LoadUsers logIn(LoadSettings settings) {
        try {
            return new LoadUsers(logIn(settings.generator(), URI.create(settings.oidcIssuer())),
                    ReadableDocuments.of(settings.generator()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while logging the load test's users in", e);
        }
    }

    /** The users of the run {@code settings} describes, without tokens, in a stable order. */
    public static List<LoadUser> of(GeneratorSettings settings) {
        List<LoadUser> users = new ArrayList<>();
        for (String code : DemoRealm.stateCodes()) {
            for (String name : DemoRealm.staff(code)) {
                users.add(new LoadUser(name, Kind.STAFF, principals(name, BankPrincipals.branch(code)), code, -1, null));
            }
        }
        for (int i = 1; i <= DemoRealm.AUDITOR_USERS; i++) {
            String name = "auditor-" + i;
            users.add(new LoadUser(name, Kind.AUDITOR, principals(name, BankPrincipals.AUDITORS), null, -1, null));
        }
        Set<String> customerUsers = Set.copyOf(DemoRealm.customerUsers());
        BankModel model = new BankModel(settings);
        for (long customer = 0; customer < Math.min(settings.customers(), DemoRealm.CUSTOMER_USERS); customer++) {
            String name = BankPrincipals.customer(model.customer(customer).number());
            if (customerUsers.contains(name)) {
                users.add(new LoadUser(name, Kind.CUSTOMER, principals(name, null), null, customer, null));
            }
        }
        return users;
    }

    private static List<String> principals(String user, String group) {
        Set<String> principals = new LinkedHashSet<>(List.of(user, Principals.EVERYONE));
        if (group != null) {
            principals.add(group);
        }
        return List.copyOf(principals);
    }

    /** The users of the run, each logged in once at the identity provider of {@code issuer}. */
    static List<LoadUser> logIn(GeneratorSettings settings, URI issuer) throws IOException, InterruptedException {
        TokenClient tokens = new TokenClient(issuer);
        ExecutorService logins = Executors.newFixedThreadPool(LOGIN_THREADS);
        try {
            List<Future<LoadUser>> loggedIn = new ArrayList<>();
            for (LoadUser user : of(settings)) {
                loggedIn.add(logins.submit(() -> user.withToken(tokens.user(user.name()))));
            }
            List<LoadUser> users = new ArrayList<>();
            for (Future<LoadUser> user : loggedIn) {
                users.add(user.get());
            }
            return users;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } finally {
            logins.shutdownNow();
        }
    }
}

package io.volumizer.loadtest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.model.Account;
import io.volumizer.generators.model.BankModel;
import io.volumizer.generators.model.Customer;
import io.volumizer.loadtest.LoadUsers.Kind;
import io.volumizer.loadtest.LoadUsers.LoadUser;

/**
 * Feeders computed by the seeded generator: who asks (a logged-in user, its token and principals) and what it may
 * touch in the repository a demo imported with the same settings, never queried from the API. A customer's user
 * gets its own folder, a branch's staff a customer of its state, an auditor a customer whose names it searches the
 * archive for; an account is one the user may read (not restricted to compliance) and a statement one not archived.
 * Users take turns in a seeded order, so every user of the feeder asks once its first records are drawn, and a load
 * test replays the same sequence.
 */
public final class Feeders {

    /** Users who navigate: those who read whole customer folders. */
    public static final Set<Kind> NAVIGATING = EnumSet.of(Kind.STAFF, Kind.CUSTOMER);
    /** Users who may write: the branches' staff. */
    public static final Set<Kind> WRITING = EnumSet.of(Kind.STAFF);

    private Feeders() {
    }

    /**
     * Endless records: user, token, principals, kind, customerId, accountId, statementId, firstName, lastName, city,
     * stateCode; for the users of {@code kinds} that have something to touch in the run.
     */
    public static Iterator<Map<String, Object>> users(GeneratorSettings settings, List<LoadUser> users, Set<Kind> kinds,
            long drawSeed) {
        BankGenerator generator = new BankGenerator(settings);
        BankModel model = generator.model();
        Map<String, List<Long>> customersByState = new HashMap<>();
        for (long customer = 0; customer < settings.customers(); customer++) {
            Customer drawn = model.customer(customer);
            if (readableAccount(model, drawn) >= 0) {
                customersByState.computeIfAbsent(drawn.stateCode(), code -> new ArrayList<>()).add(customer);
            }
        }
        List<LoadUser> feeding = new ArrayList<>(users.stream().filter(user -> kinds.contains(user.kind()))
                .filter(user -> switch (user.kind()) {
                    case STAFF -> customersByState.containsKey(user.stateCode());
                    case CUSTOMER -> readableAccount(model, model.customer(user.customer())) >= 0;
                    case AUDITOR -> true;
                }).toList());
        if (feeding.isEmpty()) {
            throw new IllegalArgumentException("no user of " + kinds + " has anything to read in the run " + settings);
        }
        Collections.shuffle(feeding, new Random(drawSeed));
        SplittableRandom random = new SplittableRandom(drawSeed);
        long[] turn = {0};
        // The generator caches its last customer: one record at a time.
        Supplier<Map<String, Object>> next = () -> {
            synchronized (random) {
                LoadUser user = feeding.get((int) (turn[0]++ % feeding.size()));
                long customer = switch (user.kind()) {
                    case CUSTOMER -> user.customer();
                    case STAFF -> {
                        List<Long> ofState = customersByState.get(user.stateCode());
                        yield ofState.get(random.nextInt(ofState.size()));
                    }
                    case AUDITOR -> random.nextLong(settings.customers());
                };
                return record(generator, user, customer);
            }
        };
        return Stream.generate(next).iterator();
    }

    private static Map<String, Object> record(BankGenerator generator, LoadUser user, long customerIndex) {
        GeneratorSettings settings = generator.settings();
        BankModel model = generator.model();
        Customer customer = model.customer(customerIndex);
        int account = Math.max(readableAccount(model, customer), 0);
        List<Integer> current = new ArrayList<>();
        for (int statement = 0; statement < settings.statementsPerAccount(); statement++) {
            if (!settings.archived(model.period(statement))) {
                current.add(statement);
            }
        }
        Account chosen = model.account(customer, account);
        String accountId = BankGenerator.accountId(chosen);
        Map<String, Object> record = new HashMap<>();
        record.put("user", user.name());
        record.put("token", user.token());
        record.put("principals", user.principals());
        record.put("kind", user.kind().name());
        record.put("customerId", BankGenerator.customerId(customer));
        record.put("accountId", accountId);
        record.put("statementId", current.isEmpty() ? accountId : generator.documentAt(generator.firstIndexOf(customerIndex)
                + 4 + (long) account * (2 + settings.statementsPerAccount())
                + current.get(Math.floorMod(customerIndex * 31, current.size()))).getId());
        record.put("firstName", customer.firstName());
        record.put("lastName", customer.lastName());
        record.put("city", customer.city());
        record.put("stateCode", customer.stateCode());
        return record;
    }

    /** The customer's first account its branch and its own user may read (not restricted), or -1. */
    private static int readableAccount(BankModel model, Customer customer) {
        for (int account = 0; account < customer.accounts(); account++) {
            if (!model.restricted(model.account(customer, account))) {
                return account;
            }
        }
        return -1;
    }
}

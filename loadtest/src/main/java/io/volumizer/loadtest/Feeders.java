package io.volumizer.loadtest;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.model.BankModel;
import io.volumizer.generators.model.Customer;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * Feeders computed by the seeded generator: the ids, names and places of random customers of the repository a
 * demo imported with the same settings, never queried from the API. The draw itself is seeded, so a load test
 * replays the same sequence of documents.
 */
public final class Feeders {

    private Feeders() {
    }

    /**
     * Endless records: customerId, accountId, statementId (of the customer's first account), firstName,
     * lastName, city, stateCode.
     */
    public static Iterator<Map<String, Object>> customers(LoadSettings settings, long drawSeed) {
        BankGenerator generator = new BankGenerator(settings.generator());
        BankModel model = generator.model();
        SplittableRandom random = new SplittableRandom(drawSeed);
        int statements = settings.generator().statementsPerAccount();
        Supplier<Map<String, Object>> next = () -> {
            long index;
            synchronized (random) {
                index = random.nextLong(settings.generator().customers());
            }
            long first = generator.firstIndexOf(index);
            Customer customer = model.customer(index);
            DocumentEvent folder = generator.documentAt(first);
            DocumentEvent account = generator.documentAt(first + 2);
            DocumentEvent statement = generator.documentAt(first + 4 + Math.floorMod(index * 31, Math.max(statements, 1)));
            Map<String, Object> record = new HashMap<>();
            record.put("customerId", folder.getId());
            record.put("accountId", account.getId());
            record.put("statementId", statements > 0 ? statement.getId() : account.getId());
            record.put("firstName", customer.firstName());
            record.put("lastName", customer.lastName());
            record.put("city", customer.city());
            record.put("stateCode", customer.stateCode());
            return record;
        };
        return Stream.generate(next).iterator();
    }
}

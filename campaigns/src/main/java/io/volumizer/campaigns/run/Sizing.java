package io.volumizer.campaigns.run;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;

/**
 * The customers a repository size takes: the generator is seeded random access by customer (customer i's documents
 * do not depend on how many customers the run has), so a repository of the first k customers is extended by
 * generating customers k.. and its documents are known without generating them.
 */
final class Sizing {

    private final BankGenerator generator;
    /** documents[k]: the documents of the first k customers, the repository's root and states included. */
    private long[] documents = new long[] {0};

    /** @param settings the run's (its customer count is ignored: any customer is reachable) */
    Sizing(GeneratorSettings settings) {
        this.generator = new BankGenerator(new GeneratorSettings(settings.seed(), Long.MAX_VALUE / 1024,
                settings.statementsPerAccount(), settings.meanAccountsPerCustomer(), settings.lastPeriod(),
                settings.repository()));
    }

    /** The fewest customers whose documents reach {@code size}. */
    long customersFor(long size) {
        long customers = 0;
        while (documentsOf(customers) < size) {
            customers++;
        }
        return customers;
    }

    /** The documents of the first {@code customers} customers, with the root and states (customer 0 brings them). */
    long documentsOf(long customers) {
        if (customers == 0) {
            return 0;
        }
        while (documents.length <= customers) {
            long[] more = java.util.Arrays.copyOf(documents, Math.max(documents.length * 2, (int) customers + 1));
            for (int k = documents.length; k < more.length; k++) {
                more[k] = (k == 1 ? generator.firstIndexOf(0) : more[k - 1]) + generator.documentCount(k - 1);
            }
            documents = more;
        }
        return documents[(int) customers];
    }
}

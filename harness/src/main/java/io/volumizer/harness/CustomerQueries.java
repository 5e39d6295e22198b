package io.volumizer.harness;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

import io.volumizer.domain.selection.Selection;
import io.volumizer.generators.BankGenerator;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.search.Aggregation;
import io.volumizer.stores.search.SearchQuery;
import io.volumizer.stores.search.SearchReader;
import io.volumizer.stores.search.SearchResult;
import io.volumizer.stores.search.SortField;

/**
 * Users asking for a customer's documents, back to back, customers drawn at random: the search load of the
 * benchmarks that compare index layouts and engines.
 */
public final class CustomerQueries {

    private CustomerQueries() {
    }

    /** The customer numbers of a generated run, to draw from. */
    public static String[] customers(BankGenerator generator) {
        String[] customers = new String[(int) generator.settings().customers()];
        for (int i = 0; i < customers.length; i++) {
            customers[i] = generator.model().customer(i).number();
        }
        return customers;
    }

    /** A customer's query, as the API sends it for {@code customer=<number>}, with its aggregations or without. */
    public static SearchQuery query(String customer, boolean aggregations) {
        // Counted up to 10,000: what Elasticsearch counts when a search does not say.
        SearchQuery query = SearchQuery.of(Selection.parse(Map.of("customer", customer)).query()).withSize(20)
                .withSort(SortField.desc(DocumentFields.CREATED), SortField.asc(DocumentFields.ID)).withCountUpTo(10_000);
        return !aggregations ? query : query.withAggregations(List.of(
                new Aggregation.Terms("type", DocumentFields.TYPE, 50, null),
                new Aggregation.Monthly("month", DocumentFields.CREATED, null)));
    }

    /**
     * Each user's latencies (ns) of back-to-back queries for {@code duration}; -1 for a query that failed. A query
     * that asked another number of shards than {@code shardsAsked}, or found nothing, ends the measure: it did not
     * measure what it says.
     *
     * @param targeted whether a query is routed to its customer's shard ({@code routing=<number>}, as the API does)
     * @param seed     of the users' draws (user {@code u} draws with {@code 31 u + seed})
     */
    public static List<long[]> run(ExecutorService pool, SearchReader reader, String alias, boolean targeted,
            boolean aggregations, int users, String[] customers, Duration duration, int shardsAsked, long seed)
            throws Exception {
        long deadline = System.nanoTime() + duration.toNanos();
        List<Future<long[]>> futures = new ArrayList<>();
        for (int user = 0; user < users; user++) {
            SplittableRandom random = new SplittableRandom(31L * user + seed);
            futures.add(pool.submit(() -> {
                long[] latencies = new long[1024];
                int n = 0;
                while (System.nanoTime() < deadline) {
                    String customer = customers[random.nextInt(customers.length)];
                    SearchQuery query = query(customer, aggregations);
                    long start = System.nanoTime();
                    long latency;
                    try {
                        SearchResult answer = reader.search(List.of(alias), targeted ? query.withRouting(customer) : query);
                        latency = System.nanoTime() - start;
                        int asked = answer.shards().total();
                        if (asked != shardsAsked || answer.total().value() == 0) {
                            throw new IllegalStateException("customer " + customer + ": " + asked + " shards asked, "
                                    + answer.total() + " hits");
                        }
                    } catch (IOException e) {
                        latency = -1;
                    }
                    if (n == latencies.length) {
                        latencies = Arrays.copyOf(latencies, n * 2);
                    }
                    latencies[n++] = latency;
                }
                return Arrays.copyOf(latencies, n);
            }));
        }
        List<long[]> all = new ArrayList<>();
        for (Future<long[]> future : futures) {
            all.add(future.get());
        }
        return all;
    }

    /** The nearest-rank percentile of sorted latencies, in milliseconds. */
    public static double percentile(long[] sortedNanos, double percent) {
        if (sortedNanos.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(percent / 100 * sortedNanos.length);
        return sortedNanos[Math.max(0, rank - 1)] / 1e6;
    }
}

package io.volumizer.loadtest.hostile;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.model.Account;
import io.volumizer.generators.model.BankModel;
import io.volumizer.generators.model.Customer;

/**
 * The requests both callers of the security benchmark send, computed from the generator: search and navigation over
 * the customers of one state, each a request a staff user of that state's branch may make and be answered 200
 * (its customers' folders, an account not restricted to compliance, its last statement, which is never archived).
 */
public final class SecurityQueries {

    /** What a request measures. */
    public enum Kind {
        SEARCH, NAVIGATION
    }

    /** A GET of the API, by its path and query. */
    public record Query(Kind kind, String path) {
    }

    private SecurityQueries() {
    }

    /** The state with the most customers in the run: its branch's staff read the most. */
    public static String busiestState(GeneratorSettings run) {
        Map<String, Integer> customers = new HashMap<>();
        BankModel model = new BankModel(run);
        for (long customer = 0; customer < run.customers(); customer++) {
            customers.merge(model.customer(customer).stateCode(), 1, Integer::sum);
        }
        return customers.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder()))).orElseThrow().getKey();
    }

    /** The queries over at most {@code maxCustomers} customers of {@code stateCode}: five reads and two searches each. */
    public static List<Query> of(GeneratorSettings run, String stateCode, int maxCustomers) {
        BankModel model = new BankModel(run);
        String documents = "/api/v1/" + run.repository() + "/documents/";
        String search = "/api/v1/search?repository=" + run.repository() + "&limit=20";
        List<Query> queries = new ArrayList<>();
        int last = run.statementsPerAccount() - 1;
        for (long index = 0, taken = 0; index < run.customers() && taken < maxCustomers; index++) {
            Customer customer = model.customer(index);
            Account account = model.account(customer, 0);
            if (!customer.stateCode().equals(stateCode) || model.restricted(account)) {
                continue;
            }
            taken++;
            String folder = BankGenerator.customerId(customer);
            String accountId = BankGenerator.accountId(account);
            queries.add(new Query(Kind.NAVIGATION, documents + folder));
            queries.add(new Query(Kind.NAVIGATION, documents + folder + "/children?limit=20"));
            queries.add(new Query(Kind.NAVIGATION, documents + accountId + "/children?limit=20&sort=date"));
            if (last >= 0) {
                String statement = BankGenerator.statementId(account, model.period(last));
                queries.add(new Query(Kind.NAVIGATION, documents + statement));
                queries.add(new Query(Kind.NAVIGATION, documents + statement + "/ancestors"));
            }
            queries.add(new Query(Kind.SEARCH, search + "&q=" + encode(customer.lastName()) + "&aggs=type,state"));
            queries.add(new Query(Kind.SEARCH, search + "&q=" + encode(customer.city()) + "&type=Statement&state="
                    + stateCode + "&sort=-date"));
        }
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("the run has no customer of " + stateCode + " with a readable account");
        }
        return queries;
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}

package io.volumizer.generators.model;

import java.text.Normalizer;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.internal.Dictionaries;
import io.volumizer.generators.internal.Dictionaries.State;
import io.volumizer.generators.internal.Rng;

/**
 * The content model: every customer, account and statement is a pure function of the settings and its
 * coordinates, each drawn from its own random stream. Nothing depends on what was generated before, so any
 * entity is computable directly (random access) and identically on every machine.
 */
public final class BankModel {

    // Stream kinds: each entity kind has its own streams, so adding draws to one never shifts another.
    private static final long CUSTOMER = 1;
    private static final long ACCOUNT = 2;
    private static final long STATEMENT = 3;
    private static final long BALANCE = 4;
    private static final long CITY = 5;
    private static final long RESTRICTION = 6;
    /** The share of accounts restricted to the compliance team. */
    public static final double RESTRICTED_ACCOUNTS = 0.01;

    private static final int CITIES_PER_STATE = 400;
    private static final long BORN_FROM = LocalDate.of(1940, 1, 1).toEpochDay();
    private static final long BORN_UNTIL = LocalDate.of(2005, 12, 31).toEpochDay();
    private static final long CUSTOMERS_SINCE = LocalDate.of(1995, 1, 1).toEpochDay();
    private static final String[] MAIL_DOMAINS = {"gmail.com", "yahoo.com", "outlook.com", "icloud.com", "aol.com",
        "hotmail.com", "comcast.net", "proton.me"};
    private static final String[] ACCOUNT_TYPES = {"Checking", "Checking", "Checking", "Checking", "Checking",
        "Savings", "Savings", "Savings", "Money Market", "Certificate of Deposit"};

    private final GeneratorSettings settings;
    private final Dictionaries words = Dictionaries.get();
    private final long seed;
    private final long lastAccountOpening;
    private final double secondAccountChance;

    public BankModel(GeneratorSettings settings) {
        this.settings = settings;
        this.seed = settings.seed();
        this.lastAccountOpening = settings.firstPeriod().atDay(1).toEpochDay() - 1;
        // 1 + Binomial(2, p) accounts has mean 1 + 2p.
        this.secondAccountChance = (settings.meanAccountsPerCustomer() - 1) / 2;
    }

    public GeneratorSettings settings() {
        return settings;
    }

    public Customer customer(long index) {
        Rng rng = Rng.of(seed, CUSTOMER, index);
        boolean female = rng.chance(0.5);
        String first = (female ? words.femaleFirstNames : words.maleFirstNames).pick(rng);
        String last = words.lastNames.pick(rng);
        State state = words.statesByPopulation.pick(rng);
        LocalDate birth = LocalDate.ofEpochDay(BORN_FROM + rng.nextLong(BORN_UNTIL - BORN_FROM + 1));
        String street = rng.between(1, 9999) + " " + streetName(rng);
        int cityIndex = rng.nextInt(CITIES_PER_STATE);
        Rng cityRng = Rng.of(seed, CITY, state.ordinal(), cityIndex);
        String city = cityName(cityRng);
        int prefixes = state.lastZipPrefix() - state.firstZipPrefix() + 1;
        String zip = pad(state.firstZipPrefix() + cityIndex % prefixes, 3) + pad(cityRng.nextInt(100), 2);
        String email = ascii(first) + "." + ascii(last) + (rng.chance(0.6) ? Integer.toString(rng.nextInt(100)) : "")
                + "@" + MAIL_DOMAINS[rng.nextInt(MAIL_DOMAINS.length)];
        String phone = "(" + rng.between(201, 989) + ") " + rng.between(200, 999) + "-" + pad(rng.nextInt(10000), 4);
        long adultAt = birth.plusYears(18).toEpochDay();
        long sinceFrom = Math.max(CUSTOMERS_SINCE, adultAt);
        LocalDate since = LocalDate.ofEpochDay(sinceFrom >= lastAccountOpening ? lastAccountOpening
                : sinceFrom + rng.nextLong(lastAccountOpening - sinceFrom));
        int accounts = 1 + (rng.chance(secondAccountChance) ? 1 : 0) + (rng.chance(secondAccountChance) ? 1 : 0);
        return new Customer(index, pad(index + 1, 10), first, last, female, birth, street, city, state.code(),
                state.name(), zip, email, phone, since, accounts);
    }

    public Account account(Customer customer, int index) {
        if (index < 0 || index >= customer.accounts()) {
            throw new IllegalArgumentException("customer " + customer.number() + " has no account " + index);
        }
        Rng rng = Rng.of(seed, ACCOUNT, customer.index(), index);
        String type = ACCOUNT_TYPES[rng.nextInt(ACCOUNT_TYPES.length)];
        long since = customer.since().toEpochDay();
        LocalDate opened = LocalDate.ofEpochDay(since + rng.nextLong(lastAccountOpening - since + 1));
        // Log-uniform between $100 and $100,000: most accounts are small, a few are large.
        long level = Math.round(Math.pow(10, 4 + 3 * rng.nextDouble()));
        return new Account(customer, index, customer.number() + "-" + (index + 1), type, opened, "USD", level);
    }

    /** Whether an account is restricted to the compliance team: drawn from its own stream, about 1% of them. */
    public boolean restricted(Account account) {
        return Rng.of(seed, RESTRICTION, account.customer().index(), account.index()).chance(RESTRICTED_ACCOUNTS);
    }

    public YearMonth period(int statementIndex) {
        return settings.firstPeriod().plusMonths(statementIndex);
    }

    /** The balance at the start of statement {@code statementIndex} (so also the end of the one before). */
    public long balanceCents(Account account, int statementIndex) {
        Rng rng = Rng.of(seed, BALANCE, account.customer().index(), account.index(), statementIndex);
        return Math.round(account.balanceLevelCents() * (0.3 + 1.4 * rng.nextDouble()));
    }

    /** Number of operations of a statement, without generating them. */
    public int operationCount(Account account, int statementIndex) {
        return statementRng(account, statementIndex).between(10, 20);
    }

    public Statement statement(Account account, int statementIndex) {
        YearMonth period = period(statementIndex);
        long opening = balanceCents(account, statementIndex);
        long closing = balanceCents(account, statementIndex + 1);
        Rng rng = statementRng(account, statementIndex);
        int count = rng.between(10, 20);
        List<Operation> operations = new ArrayList<>(count);
        long sum = 0;
        for (int i = 0; i < count - 1; i++) {
            LocalDate date = period.atDay(rng.between(1, period.lengthOfMonth()));
            Operation operation;
            if (rng.chance(0.8)) {
                long amount = -Math.round(Math.pow(10, 2.5 + 2.1 * rng.nextDouble()));
                operation = new Operation(date, rng.chance(0.7) ? "Card payment" : "Direct debit", company(rng), amount);
            } else {
                long amount = Math.round(Math.pow(10, 3.3 + 1.9 * rng.nextDouble()));
                operation = new Operation(date, "Incoming transfer", company(rng), amount);
            }
            sum += operation.amountCents();
            operations.add(operation);
        }
        operations.sort(Comparator.comparing(Operation::date));
        long balancing = closing - opening - sum;
        operations.add(new Operation(period.atEndOfMonth(), balancing >= 0 ? "Salary" : "Transfer to savings",
                balancing >= 0 ? company(rng) : "Own savings account", balancing));
        return new Statement(account, statementIndex, period, opening, closing, List.copyOf(operations));
    }

    private Rng statementRng(Account account, int statementIndex) {
        return Rng.of(seed, STATEMENT, account.customer().index(), account.index(), statementIndex);
    }

    private String streetName(Rng rng) {
        String root = rng.chance(0.5) ? words.lastNames.pick(rng) : words.streetWords.pick(rng);
        return root + " " + words.streetSuffixes.pick(rng);
    }

    private String cityName(Rng rng) {
        String root = rng.chance(0.6) ? words.lastNames.pick(rng) : words.streetWords.pick(rng);
        String prefix = rng.chance(0.25) ? words.cityPrefixes.pick(rng) + " " : "";
        String suffix = rng.chance(0.6) ? words.citySuffixes.pick(rng) : "";
        return prefix + root + suffix;
    }

    private String company(Rng rng) {
        String root = rng.chance(0.75) ? words.lastNames.pick(rng) : words.streetWords.pick(rng);
        if (rng.chance(0.15)) {
            root = root + " & " + words.lastNames.pick(rng);
        }
        return root + " " + words.industries.pick(rng) + " " + words.companySuffixes.pick(rng);
    }

    /** Lower-case ASCII for e-mail addresses: accents dropped, anything else removed. */
    static String ascii(String name) {
        String folded = Normalizer.normalize(name, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
        return folded.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    /** Zero-padded decimal, faster than String.format on the hot path. */
    public static String pad(long value, int width) {
        String digits = Long.toString(value);
        if (digits.length() >= width) {
            return digits;
        }
        StringBuilder padded = new StringBuilder(width);
        for (int i = digits.length(); i < width; i++) {
            padded.append('0');
        }
        return padded.append(digits).toString();
    }
}

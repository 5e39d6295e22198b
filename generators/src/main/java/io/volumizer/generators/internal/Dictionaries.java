package io.volumizer.generators.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The word lists content is made of, shipped as resources (see dictionary/README.md): US Census first names and
 * surnames with their frequencies (about 490 million first-last pairs), states with zip prefixes and population
 * weights, and parts of street, city and company names. Loaded once per JVM.
 */
public final class Dictionaries {

    /** A US state: code, name, the range of its 3-digit zip prefixes. */
    public record State(int ordinal, String code, String name, int firstZipPrefix, int lastZipPrefix) {
    }

    public final WeightedList<String> femaleFirstNames;
    public final WeightedList<String> maleFirstNames;
    public final WeightedList<String> lastNames;
    public final WeightedList<State> statesByPopulation;
    public final List<State> states;
    public final WeightedList<String> streetWords;
    public final WeightedList<String> streetSuffixes;
    public final WeightedList<String> cityPrefixes;
    public final WeightedList<String> citySuffixes;
    public final WeightedList<String> industries;
    public final WeightedList<String> companySuffixes;

    private static final class Holder {
        static final Dictionaries INSTANCE = new Dictionaries();
    }

    public static Dictionaries get() {
        return Holder.INSTANCE;
    }

    private Dictionaries() {
        WeightedList.Builder<String> female = WeightedList.builder();
        WeightedList.Builder<String> male = WeightedList.builder();
        read("first-names.tsv", f -> (f[0].equals("F") ? female : male).add(f[1], Long.parseLong(f[2])));
        femaleFirstNames = female.build();
        maleFirstNames = male.build();

        WeightedList.Builder<String> last = WeightedList.builder();
        read("last-names.tsv", f -> last.add(f[0], Long.parseLong(f[1])));
        lastNames = last.build();

        List<State> stateList = new ArrayList<>();
        WeightedList.Builder<State> byPopulation = WeightedList.builder();
        read("states.tsv", f -> {
            State state = new State(stateList.size(), f[0], f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]));
            stateList.add(state);
            byPopulation.add(state, Long.parseLong(f[4]));
        });
        states = List.copyOf(stateList);
        statesByPopulation = byPopulation.build();

        streetWords = uniform("street-words.txt");
        // Earlier suffixes are more common: weight by reverse rank.
        WeightedList.Builder<String> suffixes = WeightedList.builder();
        List<String> suffixLines = new ArrayList<>();
        read("street-suffixes.txt", f -> suffixLines.add(f[0]));
        for (int i = 0; i < suffixLines.size(); i++) {
            suffixes.add(suffixLines.get(i), suffixLines.size() - i);
        }
        streetSuffixes = suffixes.build();

        WeightedList.Builder<String> prefixes = WeightedList.builder();
        WeightedList.Builder<String> citySuffixBuilder = WeightedList.builder();
        read("city-parts.txt", f -> (f[0].equals("prefix") ? prefixes : citySuffixBuilder).add(f[1], 1));
        cityPrefixes = prefixes.build();
        citySuffixes = citySuffixBuilder.build();

        WeightedList.Builder<String> industryBuilder = WeightedList.builder();
        WeightedList.Builder<String> companySuffixBuilder = WeightedList.builder();
        read("companies.tsv", f -> (f[0].equals("industry") ? industryBuilder : companySuffixBuilder).add(f[1], 1));
        industries = industryBuilder.build();
        companySuffixes = companySuffixBuilder.build();
    }

    private static WeightedList<String> uniform(String resource) {
        WeightedList.Builder<String> builder = WeightedList.builder();
        read(resource, f -> builder.add(f[0], 1));
        return builder.build();
    }

    /** Calls {@code row} with the tab-separated fields of each line that is neither blank nor a # comment. */
    private static void read(String resource, Consumer<String[]> row) {
        String path = "/io/volumizer/generators/dictionary/" + resource;
        try (InputStream in = Dictionaries.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("dictionary " + path + " is missing from the classpath");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    row.accept(line.split("\t"));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read dictionary " + path, e);
        }
    }
}

package io.volumizer.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.volumizer.cli.Volumizer;
import io.volumizer.options.conventions.MetricNames;

/**
 * The reference pages ({@code docs/reference/*.md}) are what the code generates: an option, a metric, a route or a
 * name added or changed without regenerating them fails here, with the command that regenerates them. Run with
 * {@code -Dvolumizer.docs.write=true} (see {@link ReferenceDocs#REGENERATE}), it writes them instead.
 */
class ReferenceDocsTest {

    static final Path ROOT = Path.of(System.getProperty("volumizer.docs.root", "..")).toAbsolutePath().normalize();
    private static final Pattern JAVA_CLASS = Pattern.compile("io\\.volumizer\\.[a-z0-9.]+\\.[A-Z]\\w*");

    @Test
    void referencePagesAreWhatTheCodeGenerates() throws IOException {
        Map<String, String> pages = ReferenceDocs.pages(ROOT);
        if (Boolean.getBoolean("volumizer.docs.write")) {
            ReferenceDocs.write(ROOT);
            System.out.println("wrote " + pages.keySet());
            return;
        }
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> page : pages.entrySet()) {
            Path file = ROOT.resolve(page.getKey());
            String written = Files.exists(file) ? Files.readString(file) : null;
            if (!page.getValue().equals(written)) {
                stale.add(page.getKey() + (written == null ? ": missing" : ": " + firstDifference(written, page.getValue())));
            }
        }
        if (!stale.isEmpty()) {
            fail("The reference pages differ from what the code generates:%n  %s%nRegenerate them from the repository's "
                    + "root with:%n  %s%nthen review and commit docs/reference/.", String.join("\n  ", stale), ReferenceDocs.REGENERATE);
        }
    }

    @Test
    void noPageInTheReferenceFolderIsLeftOver() throws IOException {
        Set<String> generated = ReferenceDocs.pages(ROOT).keySet();
        try (Stream<Path> files = Files.list(ROOT.resolve(ReferenceDocs.FOLDER))) {
            List<String> others = files.map(file -> ROOT.relativize(file).toString().replace('\\', '/'))
                    .filter(name -> name.endsWith(".md") && !generated.contains(name) && !name.endsWith("/README.md")).toList();
            assertThat(others).as("pages in %s that nothing generates (remove them, or generate them)", ReferenceDocs.FOLDER).isEmpty();
        }
    }

    @Test
    void generationIsDeterministic() throws IOException {
        assertThat(ReferenceDocs.pages(ROOT)).isEqualTo(ReferenceDocs.pages(ROOT));
    }

    @Test
    void theCliPageCoversEveryJavaClassTheScriptsRun() throws IOException {
        Set<String> covered = new HashSet<>(CliReference.NOT_COMMANDS.keySet());
        Stream.concat(CliReference.COMMANDS.stream(), CliReference.benchmarks(ROOT).stream())
                .forEach(entry -> covered.add(entry.type().getName()));
        covered.add(CliReference.LOAD_TEST_RUN.type().getName());
        List<Path> scripts = new ArrayList<>(List.of(ROOT.resolve("bin/volumizer")));
        try (Stream<Path> library = Files.list(ROOT.resolve("bin/lib"))) {
            library.filter(file -> file.toString().endsWith(".sh")).sorted().forEach(scripts::add);
        }
        List<String> missing = new ArrayList<>();
        for (Path script : scripts) {
            Matcher named = JAVA_CLASS.matcher(Files.readString(script));
            while (named.find()) {
                String name = named.group();
                if (!covered.contains(name) && isCommand(name)) {
                    missing.add(ROOT.relativize(script) + ": " + name);
                }
            }
        }
        assertThat(missing).as("classes bin/volumizer runs that CliReference.COMMANDS, the suites of bench or NOT_COMMANDS do not list")
                .isEmpty();
    }

    @Test
    void theCliPageCoversEverySubcommandOfTheCommandLine() {
        Set<Class<?>> covered = new HashSet<>();
        CliReference.COMMANDS.forEach(entry -> covered.add(entry.type()));
        List<String> missing = Volumizer.commandLine().getSubcommands().values().stream()
                .map(command -> command.getCommandSpec().userObject().getClass())
                .filter(type -> !covered.contains(type) && !CliReference.NOT_COMMANDS.containsKey(type.getName()))
                .map(Class::getName).toList();
        assertThat(missing).as("subcommands of the command line (cli/) that CliReference.COMMANDS or NOT_COMMANDS do not list").isEmpty();
    }

    @Test
    void metricsPageNamesEveryStageMetric() throws IOException {
        String page = ReferenceDocs.pages(ROOT).get(ReferenceDocs.FOLDER + "/metrics.md");
        assertThat(MetricNames.stagePrometheusNames()).allSatisfy(name -> assertThat(page).contains(name));
        assertThat(MetricNames.apiPrometheusNames()).allSatisfy(name -> assertThat(page).contains(name));
        assertThat(MetricNames.holdPrometheusNames()).allSatisfy(name -> assertThat(page).contains(name));
    }

    @Test
    void noSecretOrMachineSpecificValueIsWritten() throws IOException {
        String home = System.getProperty("user.home");
        for (Map.Entry<String, String> page : ReferenceDocs.pages(ROOT).entrySet()) {
            assertThat(page.getValue()).as(page.getKey()).doesNotContain(ROOT.toString());
            if (home != null && home.length() > 1) {
                assertThat(page.getValue()).as(page.getKey()).doesNotContain(home + "/");
            }
            for (String variable : List.of("VOLUMIZER_MONGODB_URI", "VOLUMIZER_KAFKA_SASL_JAAS_CONFIG", "VOLUMIZER_SEARCH_PASSWORD",
                    "VOLUMIZER_CLIENT_SECRET", "VOLUMIZER_DEMO_PASSWORD")) {
                String value = System.getenv(variable);
                if (value != null && value.length() > 3) {
                    assertThat(page.getValue()).as("%s holds $%s's value", page.getKey(), variable).doesNotContain(value);
                }
            }
        }
    }

    @Test
    void everyBenchmarkSuiteOfTheScriptIsBuilt() throws IOException {
        List<String> missing = CliReference.suites(ROOT).stream().map(CliReference.Suite::className).filter(name -> {
            try {
                Class.forName(name, false, ReferenceDocsTest.class.getClassLoader());
                return false;
            } catch (ClassNotFoundException e) {
                return true;
            }
        }).toList();
        assertThat(missing).as("runners BenchCommand names that the benchmarks module does not hold").isEmpty();
    }

    /** Whether a class the scripts name is a picocli command they run (a main), not one they mention in passing. */
    private static boolean isCommand(String name) {
        try {
            Class<?> type = Class.forName(name, false, ReferenceDocsTest.class.getClassLoader());
            type.getMethod("main", String[].class);
            return type.getAnnotation(picocli.CommandLine.Command.class) != null || name.endsWith("ApiServer");
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            return false; // not on this module's classpath (the jobs', the services'), or no main
        }
    }

    private static String firstDifference(String written, String generated) {
        String[] a = written.split("\n", -1);
        String[] b = generated.split("\n", -1);
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String left = i < a.length ? a[i] : "(end of file)";
            String right = i < b.length ? b[i] : "(end of file)";
            if (!left.equals(right)) {
                int column = 0;
                while (column < Math.min(left.length(), right.length()) && left.charAt(column) == right.charAt(column)) {
                    column++;
                }
                return "line " + (i + 1) + ", column " + (column + 1) + "%n      written:   ".formatted()
                        + around(left, column) + "%n      generated: ".formatted() + around(right, column);
            }
        }
        return "differs";
    }

    /** The part of a line around a column, at most 160 characters. */
    private static String around(String line, int column) {
        int from = Math.max(0, column - 60);
        return (from > 0 ? "…" : "") + abbreviate(line.substring(Math.min(from, line.length())));
    }

    private static String abbreviate(String line) {
        return line.length() > 160 ? line.substring(0, 160) + "…" : line;
    }
}

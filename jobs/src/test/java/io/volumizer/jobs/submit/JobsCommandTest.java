package io.volumizer.jobs.submit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobsCommandTest {

    /**
     * bin/volumizer runs the command on a classpath without Flink (it is provided by the cluster), so the test runs
     * it in a class loader that has every class of the test's classpath except Flink's.
     */
    @ParameterizedTest
    @CsvSource({"import, --resolved-folder-cache", "generate, --max-docs-per-second", "index, --index-batch-bytes",
        "import-and-index, --parent-check-interval", "smoke, --records-per-second"})
    void aStepsHelpIsPrintedHereWithoutFlinkAClusterOrAJar(String step, String option) throws Exception {
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        int exitCode;
        try (WithoutFlink loader = new WithoutFlink()) {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            var execute = loader.loadClass(JobsCommand.class.getName()).getDeclaredMethod("execute", String[].class);
            execute.setAccessible(true);
            exitCode = (int) execute.invoke(null,
                    (Object) new String[] {"--flink-rest", "http://127.0.0.1:1", "submit", step, "--help"});
        } finally {
            System.setOut(stdout);
        }
        assertThat(exitCode).as(printed.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains(option, "--bootstrap-servers");
    }

    /** The test's classpath, loaded anew, with no class of Flink's. */
    private static final class WithoutFlink extends URLClassLoader {

        WithoutFlink() {
            super(classpath(), ClassLoader.getPlatformClassLoader());
        }

        private static URL[] classpath() {
            String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            return Arrays.stream(classpath.split(File.pathSeparator)).map(entry -> {
                try {
                    return new File(entry).toURI().toURL();
                } catch (MalformedURLException e) {
                    throw new IllegalArgumentException(entry, e);
                }
            }).toArray(URL[]::new);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.apache.flink.")) {
                throw new ClassNotFoundException(name + " (not on the client's classpath)");
            }
            return super.loadClass(name, resolve);
        }
    }

}

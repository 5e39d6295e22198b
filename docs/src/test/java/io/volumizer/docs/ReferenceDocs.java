package io.volumizer.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The reference pages, generated from the code they describe: {@link #pages} makes them in memory,
 * {@code ReferenceDocsTest} compares them with {@code docs/reference/*.md}, and writes them instead when run with
 * {@code -Dvolumizer.docs.write=true} ({@link #REGENERATE}).
 */
final class ReferenceDocs {

    /** The folder of the generated pages, under the repository's root. */
    static final String FOLDER = "docs/reference";

    /** The command that writes the pages again from the code (from the repository's root). */
    static final String REGENERATE = "mvn -q -pl docs -am test -Dtest=ReferenceDocsTest -Dsurefire.failIfNoSpecifiedTests=false "
            + "-Dvolumizer.docs.write=true";

    private ReferenceDocs() {
    }

    /** Every generated page by its path under the repository's root. */
    static Map<String, String> pages(Path root) throws IOException {
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put(FOLDER + "/cli.md", CliReference.page(root));
        pages.put(FOLDER + "/steps.md", StepsReference.page());
        pages.put(FOLDER + "/metrics.md", MetricsReference.page(root));
        pages.put(FOLDER + "/rest-api.md", RestApiReference.page());
        pages.put(FOLDER + "/names.md", NamesReference.page(root));
        return pages;
    }

    /** Writes every page under {@code root}. */
    static void write(Path root) throws IOException {
        for (Map.Entry<String, String> page : pages(root).entrySet()) {
            Path file = root.resolve(page.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, page.getValue());
        }
    }

    /** A generated page's first lines: a note not to edit it, its title and what it holds. */
    static String header(String title, String intro) {
        return "<!-- Generated from the code by docs/src/test/java/io/volumizer/docs/ReferenceDocs.java: do not edit. "
                + "Regenerate: " + REGENERATE + " -->\n\n# " + title + "\n\n" + intro + "\n\n";
    }
}

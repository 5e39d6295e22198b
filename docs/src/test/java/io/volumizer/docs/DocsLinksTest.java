package io.volumizer.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of the documentation resolves as GitHub resolves it: the file or folder it names exists in the
 * checkout, and its {@code #anchor} is a heading of the page it points to (GitHub's anchor rules). The pages: the
 * README, {@code docs/**}, the chart's README and the results' READMEs. And the operator tasks the README promises are
 * each a link or two away from it.
 */
class DocsLinksTest {

    private static final Path ROOT = ReferenceDocsTest.ROOT;

    /** The pages whose links are checked, by glob under the root. */
    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("helm/volumizer/README.md")));
        pages.addAll(markdownUnder(ROOT.resolve("docs"), false));
        pages.addAll(markdownUnder(ROOT.resolve("benchmarks/results"), true));
        pages.addAll(markdownUnder(ROOT.resolve("loadtest/results"), true));
        return pages;
    }

    private static List<Path> markdownUnder(Path folder, boolean readmesOnly) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(file -> file.toString().endsWith(".md"))
                    .filter(file -> !readmesOnly || file.getFileName().toString().equals("README.md"))
                    .filter(file -> {
                        String relative = folder.relativize(file).toString().replace('\\', '/');
                        return !relative.startsWith("target/") && !relative.startsWith("src/") && !relative.startsWith("reports/");
                    })
                    .sorted().toList();
        }
    }

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        assertThat(brokenLinks(ROOT, pages())).as("broken links (GitHub anchors: the heading's text in lower case, without "
                + "punctuation but '-' and '_', spaces as '-'; a repeated heading gets -1, -2...)").isEmpty();
    }

    @Test
    void aBrokenLinkOrAnchorIsFound(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("docs/sub"));
        Files.writeString(root.resolve("docs/sub/page.md"), "# A page\n\n## Stop a job, then resume it\n\n## Notes\n\n## Notes\n");
        Files.writeString(root.resolve("README.md"), String.join("\n",
                "# Title", "",
                "[ok](docs/sub/page.md#stop-a-job-then-resume-it) [ok](docs/sub/page.md#notes-1) [ok](#title) [ok](docs/)",
                "[ok](https://example.com/x.md#nowhere) `[not a link](nowhere.md)`",
                "```", "[in code](nowhere.md)", "```",
                "[missing file](docs/nowhere.md)", "[missing anchor](docs/sub/page.md#notes-2)", "[missing here](#nowhere)",
                "[outside](../elsewhere.md)", ""));
        List<String> broken = brokenLinks(root, List.of(root.resolve("README.md")));
        assertThat(broken).hasSize(4);
        assertThat(broken.get(0)).startsWith("README.md:8: docs/nowhere.md: no such file");
        assertThat(broken.get(1)).startsWith("README.md:9: docs/sub/page.md#notes-2: no heading with anchor #notes-2");
        assertThat(broken.get(2)).startsWith("README.md:10: #nowhere: no heading with anchor #nowhere");
        assertThat(broken.get(3)).startsWith("README.md:11: ../elsewhere.md: outside the repository");
    }

    /** Each broken relative link of {@code pages} (under {@code root}): where it is and what is wrong. */
    static List<String> brokenLinks(Path root, List<Path> pages) throws IOException {
        Map<Path, List<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            for (Markdown.Link link : Markdown.links(Files.readString(page))) {
                problem(root, page, link.destination(), anchors).ifPresent(problem ->
                        broken.add(root.relativize(page) + ":" + link.line() + ": " + link.destination() + ": " + problem));
            }
        }
        return broken;
    }

    @Test
    void theOperatorTasksAreAtMostTwoLinksFromTheReadme() throws IOException {
        // Issue 56's ten tasks: the page (and section) that answers each.
        Map<String, String> tasks = Map.of(
                "stop the import and resume it", "docs/operations/jobs.md#stop-a-job-with-a-savepoint-and-resume-it",
                "throttle it", "docs/operations/throttling.md",
                "reindex with the alias swap", "docs/operations/reindex-and-bulk.md#reindex-a-repository-with-the-alias-swap",
                "bulk-update a selection", "docs/operations/reindex-and-bulk.md#bulk-update-a-selection",
                "give a group read access to a folder", "docs/operations/acl-changes.md",
                "switch to OpenSearch", "docs/operations/search-engines.md#switch-to-opensearch",
                "add a repository to a topology", "docs/operations/topologies.md#add-a-repository-to-a-topology",
                "find why documents are dead-lettered", "docs/operations/troubleshooting.md#documents-are-dead-lettered",
                "deploy on EKS with managed Kafka, MongoDB and OpenSearch", "docs/operations/kubernetes.md",
                "plan clusters for 3 billion documents", "docs/operations/capacity-planning.md");
        Map<Path, Integer> distance = reachable(ROOT.resolve("README.md"), 2);
        List<String> far = new ArrayList<>();
        for (Map.Entry<String, String> task : tasks.entrySet()) {
            String[] target = task.getValue().split("#", 2);
            Path page = ROOT.resolve(target[0]).normalize();
            if (!distance.containsKey(page)) {
                far.add(task.getKey() + ": " + target[0] + " is not within two links of README.md");
            } else if (target.length > 1 && !anchors(page).contains(target[1])) {
                far.add(task.getKey() + ": " + target[0] + " has no section #" + target[1]);
            }
        }
        assertThat(far).isEmpty();
    }

    /** The pages reachable from {@code start} by at most {@code hops} relative links, by their distance. */
    private static Map<Path, Integer> reachable(Path start, int hops) throws IOException {
        Map<Path, Integer> distance = new HashMap<>(Map.of(start, 0));
        Deque<Path> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            Path page = queue.removeFirst();
            int at = distance.get(page);
            if (at == hops || !page.toString().endsWith(".md") || !Files.isRegularFile(page)) {
                continue;
            }
            for (Markdown.Link link : Markdown.links(Files.readString(page))) {
                String destination = link.destination();
                if (isExternal(destination) || destination.startsWith("#") || destination.isEmpty()) {
                    continue;
                }
                Path target = resolve(ROOT, page, destination.split("#", 2)[0]);
                if (Files.isDirectory(target)) {
                    target = target.resolve("README.md");
                }
                if (!distance.containsKey(target)) {
                    distance.put(target, at + 1);
                    queue.addLast(target);
                }
            }
        }
        return distance;
    }

    private static java.util.Optional<String> problem(Path root, Path page, String destination,
            Map<Path, List<String>> anchors) throws IOException {
        if (destination.isEmpty()) {
            return java.util.Optional.of("an empty link");
        }
        if (isExternal(destination)) {
            return java.util.Optional.empty();
        }
        String[] parts = destination.split("#", 2);
        Path target = parts[0].isEmpty() ? page : resolve(root, page, parts[0]);
        if (!target.startsWith(root)) {
            return java.util.Optional.of("outside the repository");
        }
        if (!Files.exists(target)) {
            return java.util.Optional.of("no such file or folder");
        }
        if (parts.length > 1 && target.toString().endsWith(".md") && Files.isRegularFile(target)) {
            List<String> known = anchors.computeIfAbsent(target, file -> {
                try {
                    return Markdown.anchors(Files.readString(file));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            String anchor = URLDecoder.decode(parts[1], StandardCharsets.UTF_8);
            if (!known.contains(anchor)) {
                return java.util.Optional.of("no heading with anchor #" + anchor + " in " + root.relativize(target));
            }
        }
        return java.util.Optional.empty();
    }

    private static Set<String> anchors(Path page) throws IOException {
        return new LinkedHashSet<>(Markdown.anchors(Files.readString(page)));
    }

    private static boolean isExternal(String destination) {
        return destination.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") || destination.startsWith("//");
    }

    /** A link's path as GitHub resolves it: from the page's folder, or from the repository's root when it starts with '/'. */
    private static Path resolve(Path root, Path page, String path) {
        String decoded = URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
        return (decoded.startsWith("/") ? root.resolve(decoded.substring(1)) : page.getParent().resolve(decoded)).normalize();
    }
}

package io.volumizer.docs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The anchors GitHub gives headings (github-slugger's rules), and the links a page holds. */
class MarkdownTest {

    @Test
    void anchorsAreGitHubs() {
        assertThat(Markdown.anchor("Stop a job with a savepoint and resume it")).isEqualTo("stop-a-job-with-a-savepoint-and-resume-it");
        assertThat(Markdown.anchor("`bin/volumizer job submit`")).isEqualTo("binvolumizer-job-submit");
        assertThat(Markdown.anchor("Faults and replays: what is guaranteed")).isEqualTo("faults-and-replays-what-is-guaranteed");
        assertThat(Markdown.anchor("The API's meters")).isEqualTo("the-apis-meters");
        assertThat(Markdown.anchor("A live repository, 2026-11-29")).isEqualTo("a-live-repository-2026-11-29");
        assertThat(Markdown.anchor("Elasticsearch / OpenSearch")).isEqualTo("elasticsearch--opensearch");
        assertThat(Markdown.anchor("Pipeline ([pipeline.md](x/pipeline.md), `pipeline.json` beside it)"))
                .isEqualTo("pipeline-pipelinemd-pipelinejson-beside-it");
        assertThat(Markdown.anchor("snake_case and Ünïcödé")).isEqualTo("snake_case-and-ünïcödé");
        assertThat(Markdown.anchor("3 billion documents")).isEqualTo("3-billion-documents");
    }

    @Test
    void repeatedHeadingsAreNumberedAndCodeIsSkipped() {
        String page = String.join("\n", "# Title", "## Notes", "```", "## Not a heading", "```", "## Notes",
                "<a name=\"custom\"></a>", "## Notes ##");
        assertThat(Markdown.anchors(page)).containsExactly("title", "notes", "notes-1", "custom", "notes-2");
    }

    @Test
    void linksOutsideCodeAreFound() {
        String page = String.join("\n", "See [a](a.md) and ![b](b.png \"title\") and `[c](c.md)`.", "```", "[d](d.md)",
                "```", "[e]: e.md#x", "[nested [brackets]](f.md)");
        assertThat(Markdown.links(page)).extracting(Markdown.Link::destination).containsExactly("a.md", "b.png", "e.md#x", "f.md");
        assertThat(Markdown.links(page)).extracting(Markdown.Link::line).containsExactly(1, 1, 5, 6);
    }
}

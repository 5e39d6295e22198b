package io.volumizer.campaigns.report;

import java.net.URISyntaxException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.ops.campaign.RunFolder;

/** The two hand-written runs of the growth campaign under src/test/resources: A has a knee, B (tuned) none. */
final class Fixtures {

    static final String WITH_KNEE = "growth/2026-12-01T08-00-00Z";
    static final String WITHOUT_KNEE = "growth/2026-12-02T08-00-00Z";

    private Fixtures() {
    }

    static Path folder(String run) {
        try {
            return Path.of(Fixtures.class.getResource(run).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static RunFolder run(String run) {
        return RunFolder.read(folder(run));
    }

    /** The figures a rendered page embeds, parsed back from it. */
    static JsonNode embedded(String html) throws Exception {
        String start = "<script type=\"application/json\" id=\"report-data\">";
        int from = html.indexOf(start) + start.length();
        return new ObjectMapper().readTree(html.substring(from, html.indexOf("</script>", from)));
    }
}

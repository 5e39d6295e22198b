package io.volumizer.campaigns.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import io.volumizer.ops.campaign.RunFolder;
import io.volumizer.ops.campaign.StepResult;

class ReportPageTest {

    private static JsonNode chart(JsonNode data, String title) {
        for (JsonNode chart : data.path("charts")) {
            if (chart.path("title").asText().equals(title)) {
                return chart;
            }
        }
        throw new AssertionError("no chart '" + title + "' in " + data.path("charts").findValuesAsText("title"));
    }

    private static List<Double> column(JsonNode chart, int index) {
        List<Double> values = new ArrayList<>();
        chart.path("data").path(index).forEach(value -> values.add(value.isNull() ? null : value.asDouble()));
        return values;
    }

    @Test
    void thePageEmbedsEachStepsThroughputAsTheRunnerRecordedIt() throws Exception {
        RunFolder run = Fixtures.run(Fixtures.WITH_KNEE);
        JsonNode data = Fixtures.embedded(ReportPage.render(List.of(run), 25));

        StepResult step = run.steps().get(0);
        JsonNode chart = chart(data, "Throughput over time, " + step.id());
        assertThat(chart.path("series").findValuesAsText("label")).containsExactly("import", "index");
        List<StepResult.StageSeries.Point> points = step.series().get(0).points();
        assertThat(column(chart, 0)).containsExactlyElementsOf(points.stream().map(p -> p.seconds()).toList());
        assertThat(column(chart, 1)).containsExactlyElementsOf(points.stream().map(p -> p.docsPerSecond()).toList());
    }

    @Test
    void figuresAgainstSizeTakeEachSizesRepositoryDocumentsAsX() throws Exception {
        RunFolder run = Fixtures.run(Fixtures.WITH_KNEE);
        JsonNode chart = chart(Fixtures.embedded(ReportPage.render(List.of(run), 25)), "Bytes a document");

        List<StepResult> imports = run.steps().stream().filter(step -> step.kind().equals("import")).toList();
        assertThat(chart.path("sizes").asBoolean()).isTrue();
        assertThat(column(chart, 0)).containsExactlyElementsOf(
                imports.stream().map(step -> step.documents().after().doubleValue()).toList());
        assertThat(column(chart, 2)).containsExactlyElementsOf(
                imports.stream().map(step -> step.bytesPerDocument().mongodbIndexes()).toList());
        assertThat(chart.path("series").findValuesAsText("label"))
                .containsExactly("MongoDB data", "MongoDB indexes", "search primary");
    }

    @Test
    void twoRunsShareEachChartTheSecondDashedAndEveryLegendNamesItsRun() throws Exception {
        RunFolder a = Fixtures.run(Fixtures.WITH_KNEE);
        RunFolder b = Fixtures.run(Fixtures.WITHOUT_KNEE);
        String html = ReportPage.render(List.of(a, b), 25);
        JsonNode data = Fixtures.embedded(html);

        for (JsonNode chart : data.path("charts")) {
            for (JsonNode series : chart.path("series")) {
                String run = series.path("compared").asBoolean() ? "B " + b.runId() : "A " + a.runId();
                assertThat(series.path("label").asText()).as(chart.path("title").asText()).endsWith(run);
            }
            assertThat(chart.path("series").findValuesAsText("label")).anyMatch(label -> label.endsWith(b.runId()));
        }
        assertThat(data.path("runs").path(0).path("knees")).isNotEmpty();
        assertThat(data.path("runs").path(1).has("knees")).isFalse();
        assertThat(html).contains("<th>B/A</th>").contains("×").contains("No knee within the sizes run");
    }

    @Test
    void thePageFetchesNothingAndSaysWhyTheRunStopped() {
        RunFolder run = Fixtures.run(Fixtures.WITH_KNEE);
        String html = ReportPage.render(List.of(run), 25);

        assertThat(Pattern.compile("<(script|link|img)[^>]+(src|href)=", Pattern.CASE_INSENSITIVE).matcher(html).find()).isFalse();
        assertThat(html).doesNotContain("@import").contains(run.run().stoppedBecause())
                .contains(Knee.rule(25)).contains("1,003,712");
    }
}

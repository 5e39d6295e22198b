package io.volumizer.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class TableTest {

    private record Pass(String name, Double perSecond, long errors) {
    }

    @Test
    void rendersHeadersAlignmentAndOneLineARowWithNumbersFormattedAndPipesEscaped() {
        Table<Pass> table = new Table<Pass>().text("pass", Pass::name).number("req/s", "%.1f", Pass::perSecond)
                .number("errors", "%,d", Pass::errors);

        String markdown = table.render(List.of(new Pass("A|alone", 1234.56, 1200), new Pass("B", null, 0)));

        assertThat(markdown).isEqualTo("""
                | pass | req/s | errors |
                |---|---:|---:|
                | A\\|alone | 1234.6 | 1,200 |
                | B |  | 0 |
                """);
    }
}

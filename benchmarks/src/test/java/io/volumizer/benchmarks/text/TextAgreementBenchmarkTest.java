package io.volumizer.benchmarks.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextAgreementBenchmarkTest {

    @Test
    void comparesEachSidesWordsAsMultisetsWhateverTheWhiteSpace() {
        TextAgreementBenchmark.FileAgreement same = TextAgreementBenchmark.compare("a.pdf", "Balance  12.50\nEUR 12.50",
                "Balance 12.50 EUR\n\n12.50\f");
        assertThat(same.common()).isEqualTo(4);
        assertThat(same.onlyPdfbox()).isEmpty();
        assertThat(same.onlyPdftotext()).isEmpty();
    }

    @Test
    void countsAWordOneSideHasMoreOftenAsMissingFromTheOther() {
        TextAgreementBenchmark.FileAgreement differing = TextAgreementBenchmark.compare("b.pdf", "Opening balance balance",
                "Opening balance closing");
        assertThat(differing.pdfboxWords()).isEqualTo(3);
        assertThat(differing.pdftotextWords()).isEqualTo(3);
        assertThat(differing.common()).isEqualTo(2);
        assertThat(differing.onlyPdfbox()).containsExactly("balance");
        assertThat(differing.onlyPdftotext()).containsExactly("closing");
    }
}

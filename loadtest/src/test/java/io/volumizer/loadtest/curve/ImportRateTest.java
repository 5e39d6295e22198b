package io.volumizer.loadtest.curve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ImportRateTest {

    @Test
    void parsesPausedFixedMaxAndHold() {
        assertThat(ImportRate.parse("0, 100,250.5,max,hold")).containsExactly(new ImportRate.Fixed(0),
                new ImportRate.Fixed(100), new ImportRate.Fixed(250.5), new ImportRate.Max(), new ImportRate.Hold());
        assertThat(ImportRate.parse("0,100,250.5,max,hold").stream().map(ImportRate::label))
                .containsExactly("0", "100", "250.5", "max", "hold");
    }

    @Test
    void theImportReadsInEveryPassButAPausedOne() {
        assertThat(ImportRate.parse("0,0.5,100,max,hold").stream().map(ImportRate::reads))
                .containsExactly(false, true, true, true, true);
    }

    @Test
    void refusesWhatIsNotARate() {
        assertThatThrownBy(() -> ImportRate.parse("100,fast")).hasMessageContaining("'fast'");
        assertThatThrownBy(() -> ImportRate.parse("-5")).hasMessageContaining("0 or more");
    }
}

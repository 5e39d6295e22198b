package io.volumizer.options.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class RunArgumentsTest {

    @Test
    void theArgumentsAJobRecordsAreReadBackWholeQuotesAndSpacesIncluded() {
        List<String> arguments = List.of("--group-id", "volumizer-bank-import", "--properties", "{\"a b\": \"c,d\"}", "");

        Map<String, String> parameters = RunArguments.parameters(arguments);

        assertThat(parameters).containsOnlyKeys(RunArguments.PARAMETER);
        assertThat(RunArguments.from(parameters)).contains(arguments);
    }

    @Test
    void aJobSubmittedOtherwiseRecordsNone() {
        assertThat(RunArguments.from(Map.of("other", "x"))).isEmpty();
    }

    @Test
    void aParameterThatIsNotAnArrayOfStringsIsNamed() {
        assertThatThrownBy(() -> RunArguments.from(Map.of(RunArguments.PARAMETER, "--group-id x")))
                .hasMessageContaining(RunArguments.PARAMETER);
    }
}

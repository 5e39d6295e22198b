package io.volumizer.stores.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

class IndexNamesTest {

    @Test
    void aRepositorysIndexIsItsNameOrItsOwnAliasUnderThePrefix() {
        IndexNames names = new IndexNames(IndexNames.DEFAULT_PREFIX, Map.of("archives", "statements-archive"));

        assertThat(names.of("us-east")).isEqualTo("volumizer-us-east");
        assertThat(names.of("archives")).isEqualTo("volumizer-statements-archive");
        assertThat(names.generation("archives", "20261123")).isEqualTo("volumizer-statements-archive.20261123");
        assertThat(names.generations("archives")).isEqualTo("volumizer-statements-archive.*");
        assertThat(names.all()).as("every alias stays under the prefix: one template, one pattern").isEqualTo("volumizer-*");
        assertThat(names.repositoryOf("volumizer-statements-archive")).isEqualTo("archives");
        assertThat(names.repositoryOf("volumizer-us-east")).isEqualTo("us-east");
    }

    @Test
    void aPrefixIsWhatCanStartAnIndexNameWithoutADot() {
        for (String refused : new String[] {"Volumizer-", "", "-volumizer", "_volumizer", "volumizer.", "a b"}) {
            assertThatThrownBy(() -> new IndexNames(refused)).as("'%s'", refused)
                    .hasMessage("an index prefix must be " + IndexNames.PREFIX_RULE + ", was '" + refused + "'");
        }
        assertThat(new IndexNames("it-run1_x-").prefix()).isEqualTo("it-run1_x-");
    }
}

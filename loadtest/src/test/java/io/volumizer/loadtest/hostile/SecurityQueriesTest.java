package io.volumizer.loadtest.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.volumizer.loadtest.hostile.SecurityQueries.Kind;
import io.volumizer.loadtest.hostile.SecurityQueries.Query;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.BankPrincipals;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.schemas.acl.AclInheritance;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.EffectiveAcl;

class SecurityQueriesTest {

    private static final GeneratorSettings RUN = new GeneratorSettings(1, 400, 12, 2.0,
            GeneratorSettings.DEFAULT_LAST_PERIOD, "bank");

    @Test
    void everyDocumentReadIsOneTheBranchMayReadAndBothKindsAreAsked() {
        String state = SecurityQueries.busiestState(RUN);
        Map<String, EffectiveAcl> effective = new HashMap<>();
        for (DocumentEvent document : new BankGenerator(RUN).documents()) {
            effective.put(document.getId(), AclInheritance.effective(
                    document.getParentId() == null ? null : effective.get(document.getParentId()), document.getAcl()));
        }
        List<Query> queries = SecurityQueries.of(RUN, state, 20);
        assertThat(queries).extracting(Query::kind).contains(Kind.SEARCH, Kind.NAVIGATION);
        String documents = "/api/v1/bank/documents/";
        for (Query query : queries) {
            if (query.kind() == Kind.NAVIGATION) {
                String id = query.path().substring(documents.length()).split("[/?]")[0];
                assertThat(effective.get(id)).as(id).isNotNull();
                assertThat(effective.get(id).getRead()).as(id).contains(BankPrincipals.branch(state));
            } else {
                assertThat(query.path()).startsWith("/api/v1/search?repository=bank&");
            }
        }
    }

    @Test
    void latenciesGiveNearestRankPercentilesAndThroughput() {
        Latencies latencies = Latencies.of(List.of(new Latencies(new long[] {1000, 2000, 3000}, 1_000_000_000L),
                new Latencies(new long[] {4000}, 1_000_000_000L)));
        assertThat(latencies.count()).isEqualTo(4);
        assertThat(latencies.perSecond()).isEqualTo(2.0);
        assertThat(latencies.percentileMillis(50)).isEqualTo(2.0);
        assertThat(latencies.percentileMillis(95)).isEqualTo(4.0);
        assertThat(latencies.meanMillis()).isEqualTo(2.5);
    }
}

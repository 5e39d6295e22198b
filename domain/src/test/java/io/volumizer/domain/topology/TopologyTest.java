package io.volumizer.domain.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.schemas.event.DocumentEvent;

class TopologyTest {

    private static final Set<String> WEST = Set.of("AK", "AR", "AZ", "CA", "CO", "HI", "IA", "ID", "KS", "LA", "MN",
            "MO", "MT", "ND", "NE", "NM", "NV", "OK", "OR", "SD", "TX", "UT", "WA", "WY");

    @Test
    void thePublishedLayoutSplitsCustomersByStateAndArchivesStatementsOfSixMonthsOrMore() {
        Topology topology = TopologyFile.load(TopologyFileTest.TOPOLOGIES.resolve("11b.yaml"));
        GeneratorSettings settings = GeneratorSettings.of(7, 60).withStatementsPerAccount(10);
        Instant present = settings.present();
        Map<String, Integer> perRepository = new HashMap<>();
        Map<String, Integer> liveStatementsPerAccount = new HashMap<>();
        for (DocumentEvent document : new BankGenerator(settings).documents()) {
            String repository = topology.route(document, present);
            perRepository.merge(repository, 1, Integer::sum);
            Object state = document.getProperties().get("state");
            if (document.getType().equals("Root")) {
                assertThat(repository).isEqualTo("us-east");
            } else if (document.getType().equals("Statement")) {
                String period = document.getProperties().get("period").toString();
                boolean old = period.compareTo(settings.lastPeriod().minusMonths(6).toString()) <= 0;
                assertThat(repository).as(document.getId()).isEqualTo(old ? "archives" : WEST.contains(state) ? "us-west" : "us-east");
                assertThat(document.getAcl() != null && document.getAcl().getBlockInheritance())
                        .as("%s is in the generator's archive (its ACL) where the topology archives it", document.getId())
                        .isEqualTo(old);
                if (!old) {
                    liveStatementsPerAccount.merge(document.getParentId(), 1, Integer::sum);
                }
            } else {
                assertThat(state).as(document.getId() + " carries its customer's state").isNotNull();
                assertThat(repository).as(document.getId()).isEqualTo(WEST.contains(state) ? "us-west" : "us-east");
            }
        }
        assertThat(liveStatementsPerAccount.values()).containsOnly(6);
        assertThat(perRepository).containsOnlyKeys("us-east", "us-west", "archives");
        assertThat(perRepository.get("us-west")).isPositive();
    }

    @Test
    void oneRepositoryTakesEveryDocument() {
        Topology single = Topology.single("demo");
        for (DocumentEvent document : new BankGenerator(GeneratorSettings.of(1, 3)).documents()) {
            assertThat(single.route(document, Instant.EPOCH)).isEqualTo("demo");
        }
    }
}

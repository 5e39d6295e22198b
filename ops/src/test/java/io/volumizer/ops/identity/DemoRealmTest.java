package io.volumizer.ops.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.BankPrincipals;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.schemas.acl.Principals;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * The realm files Keycloak imports are what {@link DemoRealm} writes, and their names are the generator's: a group
 * per state folder the generator makes, a user per customer of the default seed's first customers.
 */
class DemoRealmTest {

    private static final Path FOLDER = Path.of("../conf/services/keycloak");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theCheckedInRealmFilesAreWhatDemoRealmWrites() throws Exception {
        for (Map.Entry<String, String> file : DemoRealm.files().entrySet()) {
            assertThat(Files.readString(FOLDER.resolve(file.getKey())))
                    .as("%s: regenerate with io.volumizer.ops.identity.DemoRealm conf/services/keycloak", file.getKey())
                    .isEqualTo(file.getValue());
        }
        try (var files = Files.list(FOLDER)) {
            assertThat(files.map(file -> file.getFileName().toString())).containsExactlyInAnyOrderElementsOf(DemoRealm.files().keySet());
        }
    }

    @Test
    void itsGroupsAreTheSystemsAndABranchPerStateFolderOfTheGenerator() throws Exception {
        JsonNode realm = JSON.readTree(FOLDER.resolve(DemoRealm.REALM + "-realm.json").toFile());
        Set<String> groups = new HashSet<>();
        realm.path("groups").forEach(group -> groups.add(group.path("name").asText()));

        Set<String> expected = new HashSet<>(Set.of(Principals.ADMINISTRATORS, BankPrincipals.AUDITORS, BankPrincipals.COMPLIANCE));
        GeneratorSettings settings = GeneratorSettings.of(GeneratorSettings.DEFAULT_SEED, 0);
        BankGenerator generator = new BankGenerator(settings);
        for (long index = 0; index < generator.indexSpace(); index++) {
            DocumentEvent document = generator.documentAt(index);
            if ("State".equals(document.getType())) {
                expected.add(BankPrincipals.branch(String.valueOf(document.getProperties().get(BankGenerator.STATE))));
            }
        }
        assertThat(expected).hasSize(3 + 50);
        assertThat(groups).isEqualTo(expected);
    }

    @Test
    void itsUsersAreInTheirGroupsAndCustomersAreNamedAfterTheGeneratorsFirstCustomers() throws Exception {
        JsonNode realm = JSON.readTree(FOLDER.resolve(DemoRealm.REALM + "-realm.json").toFile());
        List<String> customers = new ArrayList<>();
        List<String> staff = new ArrayList<>();
        realm.path("users").forEach(user -> {
            String name = user.path("username").asText();
            List<String> groups = new ArrayList<>();
            user.path("groups").forEach(group -> groups.add(group.asText()));
            if (name.startsWith("customer-")) {
                customers.add(name);
                assertThat(groups).as(name).isEmpty();
            } else if (name.startsWith("staff-")) {
                staff.add(name);
                assertThat(groups).as(name).singleElement().asString().startsWith("/branch-");
            }
        });
        BankGenerator generator = new BankGenerator(GeneratorSettings.of(GeneratorSettings.DEFAULT_SEED, 1));
        String firstCustomerNumber = generator.model().customer(0).number();

        assertThat(customers).hasSize(DemoRealm.CUSTOMER_USERS).contains(BankPrincipals.customer(firstCustomerNumber));
        assertThat(staff).hasSizeGreaterThanOrEqualTo(100);
        assertThat(realm.toString()).as("secrets are filled in when Keycloak starts").doesNotContain("volumizer-demo")
                .contains("${" + DemoRealm.CLIENT_SECRET_VARIABLE + "}");
    }

    @Test
    void eachUserHasAPasswordOfItsOwnAndNoSecretIsInTheFiles() throws Exception {
        for (String file : DemoRealm.files().keySet()) {
            JsonNode realm = JSON.readTree(FOLDER.resolve(file).toFile());
            Set<String> placeholders = new HashSet<>();
            realm.path("users").forEach(user -> user.path("credentials").forEach(credential -> {
                String name = user.path("username").asText();
                assertThat(credential.path("value").asText()).as(name)
                        .isEqualTo("${" + LocalSecrets.passwordVariable(name) + "}");
                assertThat(placeholders.add(credential.path("value").asText())).as("%s's is its own", name).isTrue();
            }));
            assertThat(placeholders).as(file).isNotEmpty();
            realm.path("clients").forEach(client -> {
                if (client.has("secret")) {
                    assertThat(client.path("secret").asText()).isEqualTo("${" + LocalSecrets.CLIENT_SECRET_VARIABLE + "}");
                }
            });
        }
    }
}

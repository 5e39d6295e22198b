package io.volumizer.ops.identity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.volumizer.generators.BankPrincipals;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.generators.internal.Dictionaries;
import io.volumizer.generators.model.BankModel;
import io.volumizer.schemas.acl.Principals;

/**
 * The local identity provider's realms, as Keycloak imports them (conf/services/keycloak/*.json, checked in and
 * compared with what this class writes by {@code DemoRealmTest}): the bank's groups and demo users, named as the
 * generator's ACLs name them, and the clients the API, the tools and the tests use. Secrets are not in the files:
 * each user's password is {@code ${VOLUMIZER_DEMO_PASSWORD_<USER>}} ({@link LocalSecrets#passwordVariable}), the
 * service client's secret {@code ${VOLUMIZER_CLIENT_SECRET}}, filled in by {@link LocalSecrets} when Keycloak starts
 * (this install's own, or the environment's).
 *
 * <p>Regenerate with {@code java -cp ... io.volumizer.ops.identity.DemoRealm conf/services/keycloak}.
 */
public final class DemoRealm {

    /** The realm the API trusts; its issuer is {@code <keycloak>/realms/volumizer}. */
    public static final String REALM = "volumizer";
    /** Another realm of the same provider: another issuer, whose tokens the API refuses. */
    public static final String OTHER_REALM = "volumizer-other";
    /** The audience the API requires (its --oidc-audience default). */
    public static final String API_AUDIENCE = "volumizer-api";
    /** Public client for password grants: people, scripts, bin/volumizer token. */
    public static final String CLI_CLIENT = "volumizer-cli";
    /** Confidential client for automation (client credentials); its service account is an administrator. */
    public static final String SERVICE_CLIENT = "volumizer-service";
    /** Its service account's user name (Keycloak's rule), the principal of automation's tokens. */
    public static final String SERVICE_ACCOUNT = "service-account-" + SERVICE_CLIENT;
    /** A public client whose tokens lack the API's audience (tests). */
    public static final String NO_AUDIENCE_CLIENT = "volumizer-no-audience";
    /** A public client whose tokens expire after a second (tests). */
    public static final String SHORT_LIVED_CLIENT = "volumizer-short-lived";

    /** The variables of the secrets (exported, they win over this install's own: {@link LocalSecrets}). */
    public static final String PASSWORD_VARIABLE = LocalSecrets.PASSWORD_VARIABLE;
    public static final String CLIENT_SECRET_VARIABLE = LocalSecrets.CLIENT_SECRET_VARIABLE;

    public static final String ADMIN = "admin";
    public static final int AUDITOR_USERS = 3;
    public static final int COMPLIANCE_USERS = 3;
    public static final int STAFF_PER_BRANCH = 2;
    /** Users for the first customers of the default seed. */
    public static final int CUSTOMER_USERS = 50;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private DemoRealm() {
    }

    /** The generator's state codes, in its dictionary's order. */
    public static List<String> stateCodes() {
        return Dictionaries.get().states.stream().map(Dictionaries.State::code).toList();
    }

    /** A branch's staff user names. */
    public static List<String> staff(String stateCode) {
        List<String> users = new ArrayList<>();
        for (int i = 1; i <= STAFF_PER_BRANCH; i++) {
            users.add("staff-" + stateCode.toLowerCase() + "-" + i);
        }
        return users;
    }

    /** The customers' user names: the first customers of the default seed, as the generator numbers them. */
    public static List<String> customerUsers() {
        BankModel model = new BankModel(GeneratorSettings.of(GeneratorSettings.DEFAULT_SEED, CUSTOMER_USERS));
        List<String> users = new ArrayList<>();
        for (long i = 0; i < CUSTOMER_USERS; i++) {
            users.add(BankPrincipals.customer(model.customer(i).number()));
        }
        return users;
    }

    /** Every realm file, by its file name. */
    public static Map<String, String> files() {
        return Map.of(REALM + "-realm.json", text(bankRealm()), OTHER_REALM + "-realm.json", text(otherRealm()));
    }

    static ObjectNode bankRealm() {
        ObjectNode realm = realm(REALM);
        ArrayNode groups = realm.putArray("groups");
        List<String> groupNames = new ArrayList<>(List.of(Principals.ADMINISTRATORS, BankPrincipals.AUDITORS, BankPrincipals.COMPLIANCE));
        stateCodes().forEach(code -> groupNames.add(BankPrincipals.branch(code)));
        groupNames.forEach(name -> groups.addObject().put("name", name));

        ArrayNode users = realm.putArray("users");
        user(users, ADMIN, Principals.ADMINISTRATORS);
        for (int i = 1; i <= AUDITOR_USERS; i++) {
            user(users, "auditor-" + i, BankPrincipals.AUDITORS);
        }
        for (int i = 1; i <= COMPLIANCE_USERS; i++) {
            user(users, "compliance-" + i, BankPrincipals.COMPLIANCE);
        }
        for (String code : stateCodes()) {
            staff(code).forEach(name -> user(users, name, BankPrincipals.branch(code)));
        }
        customerUsers().forEach(name -> user(users, name, null));
        users.addObject().put("username", SERVICE_ACCOUNT).put("enabled", true).put("serviceAccountClientId", SERVICE_CLIENT)
                .putArray("groups").add("/" + Principals.ADMINISTRATORS);

        ArrayNode clients = realm.putArray("clients");
        passwordClient(clients, CLI_CLIENT, true);
        ObjectNode service = client(clients, SERVICE_CLIENT, true);
        service.put("publicClient", false).put("clientAuthenticatorType", "client-secret")
                .put("secret", "${" + CLIENT_SECRET_VARIABLE + "}").put("serviceAccountsEnabled", true)
                .put("directAccessGrantsEnabled", false);
        // Automation's runs (a load test, a bench) last longer than a person's five-minute token.
        service.putObject("attributes").put("access.token.lifespan", "3600");
        passwordClient(clients, NO_AUDIENCE_CLIENT, false);
        passwordClient(clients, SHORT_LIVED_CLIENT, true).putObject("attributes").put("access.token.lifespan", "1");
        return realm;
    }

    static ObjectNode otherRealm() {
        ObjectNode realm = realm(OTHER_REALM);
        user(realm.putArray("users"), ADMIN, null);
        passwordClient(realm.putArray("clients"), CLI_CLIENT, true);
        return realm;
    }

    private static ObjectNode realm(String name) {
        ObjectNode realm = JSON.createObjectNode();
        realm.put("realm", name).put("enabled", true).put("sslRequired", "external")
                .put("accessTokenLifespan", 300).put("bruteForceProtected", true);
        return realm;
    }

    private static void user(ArrayNode users, String name, String group) {
        ObjectNode user = users.addObject();
        user.put("username", name).put("enabled", true).put("firstName", name).put("lastName", "Demo")
                .put("email", name + "@volumizer.invalid").put("emailVerified", true);
        user.putArray("credentials").addObject().put("type", "password").put("value", "${" + LocalSecrets.passwordVariable(name) + "}")
                .put("temporary", false);
        if (group != null) {
            user.putArray("groups").add("/" + group);
        }
    }

    private static ObjectNode passwordClient(ArrayNode clients, String clientId, boolean withAudience) {
        ObjectNode client = client(clients, clientId, withAudience);
        client.put("publicClient", true).put("directAccessGrantsEnabled", true);
        return client;
    }

    /** A client whose access tokens carry the groups claim (plain names) and, if asked, the API's audience. */
    private static ObjectNode client(ArrayNode clients, String clientId, boolean withAudience) {
        ObjectNode client = clients.addObject();
        client.put("clientId", clientId).put("enabled", true).put("protocol", "openid-connect")
                .put("standardFlowEnabled", false);
        ArrayNode mappers = client.putArray("protocolMappers");
        ObjectNode groups = mappers.addObject().put("name", "groups").put("protocol", "openid-connect")
                .put("protocolMapper", "oidc-group-membership-mapper");
        groups.putObject("config").put("claim.name", "groups").put("full.path", "false")
                .put("access.token.claim", "true").put("id.token.claim", "false").put("userinfo.token.claim", "false");
        if (withAudience) {
            ObjectNode audience = mappers.addObject().put("name", "audience").put("protocol", "openid-connect")
                    .put("protocolMapper", "oidc-audience-mapper");
            audience.putObject("config").put("included.custom.audience", API_AUDIENCE)
                    .put("access.token.claim", "true").put("id.token.claim", "false");
        }
        return client;
    }

    private static String text(ObjectNode realm) {
        try {
            return JSON.writeValueAsString(realm) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the realm files into the folder given (conf/services/keycloak). */
    public static void main(String[] args) throws IOException {
        Path folder = Path.of(args.length == 1 ? args[0] : "conf/services/keycloak");
        Files.createDirectories(folder);
        for (Map.Entry<String, String> file : files().entrySet()) {
            Files.writeString(folder.resolve(file.getKey()), file.getValue());
        }
    }
}

package io.volumizer.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.client.MongoCollection;
import com.nimbusds.jwt.SignedJWT;

import io.volumizer.api.documents.Documents;
import io.volumizer.api.testing.LocalApi;
import io.volumizer.api.testing.LocalPipeline;
import io.volumizer.api.testing.Tokens;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.BankPrincipals;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.stores.mongodb.BruteForceAcls;
import io.volumizer.options.steps.BulkUpdateOptions;
import io.volumizer.schemas.acl.Principals;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Permission;
import io.volumizer.stores.DocumentFields;
import io.volumizer.stores.commands.CommandStore;

/**
 * Every read route, as users of each kind, against a brute-force evaluation of the ACLs over MongoDB: the real
 * pipeline generates and imports a repository of the default seed (whose first customers have users in the local
 * identity provider), with the bank's layout: branches read their state, a customer its folder, auditors the
 * archived statements (which block inheritance). An administrator adds, through the API, a folder restricted to
 * compliance (a block; a run this small has no restricted account) under the first customer's first account, and a
 * note in it (inherited from the block). Each user's token is the
 * identity provider's; what the user may read is decided here from the stored own ACLs alone
 * ({@link BruteForceAcls}), never from the effective ones the import computed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AclMatrixIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int PAGE = 50;

    private static LocalPipeline pipeline;
    private static LocalApi local;
    private static BruteForceAcls acls;
    /** Every stored document of the repository, by id. */
    private static final Map<String, Document> STORED = new HashMap<>();
    private static final Map<String, List<String>> CHILDREN = new HashMap<>();
    private static String commandId;

    /** A user of the realm, with the principals its token carries. */
    record User(String name, String token, Set<String> principals, boolean administrator) {

        static User named(String name) throws Exception {
            String token = Tokens.user(name);
            List<String> groups = SignedJWT.parse(token).getJWTClaimsSet().getStringListClaim("groups");
            Set<String> principals = new LinkedHashSet<>(groups == null ? List.of() : groups);
            principals.add(name);
            principals.add(Principals.EVERYONE);
            return new User(name, token, principals, principals.contains(Principals.ADMINISTRATORS));
        }

        boolean mayRead(String id) {
            return administrator || acls.allows(id, principals, Permission.READ);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static final List<User> USERS = new ArrayList<>();

    @BeforeAll
    static void repositoryAndUsers() throws Exception {
        // 12 statements per account: those older than the archive age are the auditors' (a block).
        pipeline = new LocalPipeline("acl", GeneratorSettings.DEFAULT_SEED, 30, 12);
        local = pipeline.api();
        DocumentEvent account = pipeline.generated.stream().filter(d -> d.getType().equals("Account")).findFirst()
                .orElseThrow();
        String restricted = "restricted-" + pipeline.run;
        create("{\"id\": \"" + restricted + "\", \"parentId\": \"" + account.getId() + "\", \"type\": \"Folder\","
                + " \"name\": \"restricted\", \"acl\": {\"blockInheritance\": true, \"aces\": [{\"principal\": \""
                + BankPrincipals.COMPLIANCE + "\", \"permission\": \"WRITE\", \"granted\": true}]}}");
        create("{\"parentId\": \"" + restricted + "\", \"type\": \"Note\", \"name\": \"under-restricted\"}");
        MongoCollection<Document> collection = new Documents(local.backends.mongo).collection(pipeline.repository);
        collection.find().forEach(document -> STORED.put(document.getString(DocumentFields.KEY), document));
        STORED.values().forEach(document -> {
            String parent = document.getString(DocumentFields.PARENT_ID);
            if (parent != null) {
                CHILDREN.computeIfAbsent(parent, p -> new ArrayList<>()).add(document.getString(DocumentFields.KEY));
            }
        });
        acls = BruteForceAcls.over(List.of(collection));
        pipeline.awaitIndexed(local.base, STORED.size());
        commandId = "bulk-acl-matrix-" + pipeline.run;
        new CommandStore(local.backends.mongo.shared()).createIfAbsent(commandId, BulkUpdateOptions.Action.delete.name(),
                pipeline.repository, new Document());

        DocumentEvent firstCustomer = pipeline.generated.stream().filter(d -> d.getType().equals("CustomerFolder"))
                .findFirst().orElseThrow();
        String state = String.valueOf(firstCustomer.getProperties().get(BankGenerator.STATE)).toLowerCase();
        String customerNumber = String.valueOf(firstCustomer.getProperties().get("customerNumber"));
        for (String name : List.of("staff-" + state + "-1", "customer-" + customerNumber, "auditor-1", "compliance-1",
                "admin")) {
            USERS.add(User.named(name));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    /** Creates a document as an administrator (the service), answered once MongoDB holds it. */
    private static void create(String body) throws Exception {
        HttpResponse<byte[]> created = HTTP.send(HttpRequest.newBuilder(URI.create(local.base + documents() + "?wait=true"))
                .header("Authorization", "Bearer " + Tokens.service()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(created.statusCode()).as(new String(created.body(), StandardCharsets.UTF_8)).isEqualTo(201);
    }

    static Stream<User> users() {
        return USERS.stream();
    }

    /** The ids {@code user} may read, by brute force. */
    private static Set<String> readable(User user) {
        Set<String> ids = new HashSet<>();
        STORED.keySet().stream().filter(user::mayRead).forEach(ids::add);
        return ids;
    }

    @Test
    void theLayoutHasInheritanceAndBlocksAndEachUserReadsSomethingButNotEverything() {
        assertThat(STORED.values()).as("documents that block inheritance")
                .anyMatch(d -> d.get(DocumentFields.ACL, Document.class) != null
                        && d.get(DocumentFields.ACL, Document.class).getBoolean(DocumentFields.Acl.BLOCK_INHERITANCE));
        for (User user : USERS) {
            Set<String> readable = readable(user);
            assertThat(readable).as(user + " reads something").isNotEmpty();
            if (!user.administrator()) {
                assertThat(readable.size()).as(user + " does not read everything").isLessThan(STORED.size());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("users")
    void getAnswersExactlyTheReadableDocumentsAndTheRestAsMissing(User user) throws Exception {
        for (String id : STORED.keySet()) {
            HttpResponse<byte[]> got = get(user, documents() + "/" + id);
            assertThat(got.statusCode()).as(user + " GET " + id).isEqualTo(user.mayRead(id) ? 200 : 404);
            if (got.statusCode() == 200) {
                // Its location names every ancestor, readable or not: only for a caller that reads everything.
                JsonNode document = JSON.readTree(got.body());
                assertThat(document.has(DocumentFields.PATH) || document.has(DocumentFields.ANCESTOR_IDS))
                        .as(user + " sees the location of " + id).isEqualTo(user.administrator());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("users")
    void childrenListExactlyTheReadableOnesOfAReadableFolder(User user) throws Exception {
        for (Map.Entry<String, List<String>> folder : CHILDREN.entrySet()) {
            String path = documents() + "/" + folder.getKey() + "/children";
            if (!user.mayRead(folder.getKey())) {
                assertThat(get(user, path).statusCode()).as(user + " children of " + folder.getKey()).isEqualTo(404);
                continue;
            }
            Set<String> expected = new HashSet<>(folder.getValue());
            expected.removeIf(id -> !user.mayRead(id));
            assertThat(pages(user, path, "children")).as(user + " children of " + folder.getKey())
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("users")
    void ancestorsLeaveOutWhatTheCallerMayNotRead(User user) throws Exception {
        for (String id : STORED.keySet()) {
            if (!user.mayRead(id) || !STORED.get(id).getString(DocumentFields.TYPE).equals("Statement")) {
                continue;
            }
            List<String> expected = new ArrayList<>(STORED.get(id).getList(DocumentFields.ANCESTOR_IDS, String.class));
            expected.removeIf(ancestor -> !user.mayRead(ancestor));
            List<String> ancestors = new ArrayList<>();
            json(get(user, documents() + "/" + id + "/ancestors")).path("ancestors")
                    .forEach(ancestor -> ancestors.add(ancestor.path("id").asText()));
            assertThat(ancestors).as(user + " ancestors of " + id).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("users")
    void blobsAreServedOnlyForReadableDocuments(User user) throws Exception {
        // One of each customer's ID cards and letters, and a statement in ten: rendering every file would be long.
        int statement = 0;
        for (Document document : STORED.values()) {
            String type = document.getString(DocumentFields.TYPE);
            if (document.get(DocumentFields.BLOB) == null || type.equals("Statement") && statement++ % 10 != 0) {
                continue;
            }
            String id = document.getString(DocumentFields.KEY);
            assertThat(get(user, documents() + "/" + id + "/blob").statusCode()).as(user + " blob of " + id)
                    .isEqualTo(user.mayRead(id) ? 200 : 404);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("users")
    void searchFindsExactlyTheReadableDocumentsAndCountsOnlyThem(User user) throws Exception {
        Set<String> expected = readable(user);
        String search = "/api/v1/" + pipeline.repository + "/search";
        assertThat(pages(user, search, "hits")).as(user + " search hits").containsExactlyInAnyOrderElementsOf(expected);

        JsonNode counted = json(get(user, search + "?limit=1&aggs=type"));
        assertThat(counted.path("total").path("value").asLong()).as(user + " total").isEqualTo(expected.size());
        Map<String, Long> byType = new TreeMap<>();
        counted.path("aggs").path("type").forEach(bucket -> byType.put(bucket.path("key").asText(), bucket.path("count").asLong()));
        Map<String, Long> expectedByType = new TreeMap<>();
        expected.forEach(id -> expectedByType.merge(STORED.get(id).getString(DocumentFields.TYPE), 1L, Long::sum));
        assertThat(byType).as(user + " documents by type").isEqualTo(expectedByType);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("users")
    void aBulkCommandsStatusIsReadByAdministratorsOnly(User user) throws Exception {
        assertThat(get(user, "/api/v1/bulk/" + commandId).statusCode()).as(user + " bulk status")
                .isEqualTo(user.administrator() ? 200 : 404);
    }

    /** Last: the note it creates would be one more document for the reads' checks. */
    @Test
    @Order(Integer.MAX_VALUE)
    void writesNeedWriteOnTheParentOrTheDocumentAndManageToSetAnAcl() throws Exception {
        User staff = USERS.get(0);
        User customer = USERS.get(1);
        User auditor = USERS.get(2);
        String account = pipeline.generated.stream().filter(d -> d.getType().equals("Account")).findFirst()
                .orElseThrow().getId();
        String note = "{\"parentId\": \"" + account + "\", \"type\": \"Note\", \"name\": \"note-%s\"%s}";
        String withAcl = ", \"acl\": {\"aces\": [{\"principal\": \"" + customer.name()
                + "\", \"permission\": \"READ\", \"granted\": false}]}";

        assertThat(write(customer, "POST", documents(), note.formatted("customer", "")).statusCode())
                .as("a customer reads their account but may not write in it").isEqualTo(403);
        assertThat(write(auditor, "POST", documents(), note.formatted("auditor", "")).statusCode())
                .as("an auditor may not even read the account: as if it did not exist").isEqualTo(400);
        assertThat(write(staff, "POST", documents(), note.formatted("staff-acl", withAcl)).statusCode())
                .as("setting an ACL needs Manage").isEqualTo(403);
        assertThat(write(staff, "POST", documents(), "{\"id\": \"chosen-" + pipeline.run + "\", "
                + note.formatted("staff-id", "").substring(1)).statusCode())
                .as("only an administrator chooses an id").isEqualTo(403);
        assertThat(write(staff, "POST", documents(), note.formatted("staff", "")).statusCode())
                .as("the branch writes its state").isEqualTo(202);
        assertThat(write(customer, "DELETE", documents() + "/" + account, null).statusCode()).isEqualTo(403);
        assertThat(write(auditor, "DELETE", documents() + "/" + account, null).statusCode()).isEqualTo(404);
    }

    private static HttpResponse<byte[]> write(User user, String method, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(local.base + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + user.token()).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String documents() {
        return "/api/v1/" + pipeline.repository + "/documents";
    }

    /** The ids of every page of a listing ({@code field}: its array), following {@code next}. */
    private static List<String> pages(User user, String path, String field) throws Exception {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            String separator = path.contains("?") ? "&" : "?";
            JsonNode page = json(get(user, path + separator + "limit=" + PAGE
                    + (cursor == null ? "" : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8))));
            page.path(field).forEach(item -> ids.add(item.path("id").asText()));
            cursor = page.path("next").isTextual() ? page.path("next").asText() : null;
        } while (cursor != null);
        return ids;
    }

    private static HttpResponse<byte[]> get(User user, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(local.base + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + user.token()).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static JsonNode json(HttpResponse<byte[]> response) throws Exception {
        assertThat(response.statusCode()).as(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}

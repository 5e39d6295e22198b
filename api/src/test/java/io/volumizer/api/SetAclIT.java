package io.volumizer.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.bson.Document;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.nimbusds.jwt.SignedJWT;

import io.volumizer.api.documents.Documents;
import io.volumizer.api.testing.LocalApi;
import io.volumizer.api.testing.LocalPipeline;
import io.volumizer.api.testing.Tokens;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.stores.mongodb.BruteForceAcls;
import io.volumizer.schemas.acl.Principals;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.schemas.event.Permission;
import io.volumizer.stores.DocumentFields;

/**
 * The setAcl bulk command on a state folder of a repository the real pipeline made, while more customers are
 * generated and imported below it: once the command is COMPLETED, and once the generation is through, every stored
 * effective ACL is what a brute-force evaluation of the own ACLs over MongoDB gives ({@link BruteForceAcls}), and
 * the index answers the user the new ACL names accordingly.
 */
class SetAclIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** A user of the realm, in the auditors' group, whom the new ACL lets read the state. */
    private static final String GRANTEE = "auditor-2";

    @Test
    void aStateFoldersNewAclReachesEveryDocumentBelowItIncludingThoseImportedMeanwhile() throws Exception {
        try (LocalPipeline pipeline = new LocalPipeline("setacl", GeneratorSettings.DEFAULT_SEED, 40, 6)) {
            LocalApi api = pipeline.api();
            MongoCollection<Document> collection = new Documents(api.backends.mongo).collection(pipeline.repository);
            String state = pipeline.generated.stream().filter(d -> d.getType().equals("CustomerFolder"))
                    .collect(Collectors.groupingBy(DocumentEvent::getParentId, Collectors.counting())).entrySet().stream()
                    .max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            long readableBefore = searchTotal(api, pipeline.repository, Tokens.user(GRANTEE));

            List<DocumentEvent> more = pipeline.generateMore(40, 100, 200);
            ObjectNode acl = aclWithGrantee(collection, state);
            HttpResponse<String> accepted = post(api, pipeline.repository, "{\"action\": \"setAcl\", \"params\": {\"document\": \"" + state
                    + "\", \"acl\": " + acl + "}}");
            assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
            JsonNode status = awaitEnd(api, JSON.readTree(accepted.body()).path("commandId").asText());

            assertThat(status.path("state").asText()).as(status.toString()).isEqualTo("COMPLETED");
            assertThat(status.path("processed").asLong()).as("documents whose effective ACL changed").isPositive();
            assertThat(status.path("params").path("document").asText()).isEqualTo(state);

            pipeline.awaitIndexed(api.base, pipeline.generated.size() + more.size());
            List<Document> stored = collection.find().into(new ArrayList<>());
            assertThat(new BruteForceAcls(id -> collection.find(Filters.eq(DocumentFields.KEY, id)).first()).mismatches(stored))
                    .as("stored effective ACLs that differ from the brute-force ones").isEmpty();

            Set<String> principals = principals(GRANTEE);
            BruteForceAcls acls = BruteForceAcls.over(List.of(collection));
            long readable = stored.stream().filter(d -> acls.allows(d.getString(DocumentFields.KEY), principals, Permission.READ)).count();
            // The index follows MongoDB: the last ACL changes become searchable a refresh after they are indexed.
            long found = searchTotal(api, pipeline.repository, Tokens.user(GRANTEE));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (found != readable && System.nanoTime() < deadline) {
                Thread.sleep(500);
                found = searchTotal(api, pipeline.repository, Tokens.user(GRANTEE));
            }
            assertThat(found).as("what the index lets " + GRANTEE + " find").isEqualTo(readable).isGreaterThan(readableBefore);

            abortedAndResumedOnTheRoot(pipeline, api, collection);
        }
    }

    /**
     * A setAcl on the root (every document below it), refused a second time while it runs, aborted with a savepoint
     * once it has changed a document, resumed from there: it completes, and every stored effective ACL is right.
     */
    private static void abortedAndResumedOnTheRoot(LocalPipeline pipeline, LocalApi api, MongoCollection<Document> collection)
            throws Exception {
        String root = pipeline.generated.get(0).getId();
        ObjectNode acl = aclWithGrantee(collection, root);
        String request = "{\"action\": \"setAcl\", \"params\": {\"document\": \"" + root + "\", \"acl\": " + acl + "}}";
        HttpResponse<String> accepted = post(api, pipeline.repository, request);
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        String commandId = JSON.readTree(accepted.body()).path("commandId").asText();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (collection.countDocuments(Filters.eq(DocumentFields.ORIGIN + "." + DocumentFields.Origin.COMMAND, commandId)) == 0) {
            assertThat(System.nanoTime()).as("a document changed by " + commandId).isLessThan(deadline);
            Thread.sleep(100);
        }
        HttpResponse<String> second = post(api, pipeline.repository, request);
        assertThat(second.statusCode()).as("a second setAcl while one runs: " + second.body()).isEqualTo(409);

        HttpResponse<String> aborted = HTTP.send(HttpRequest.newBuilder(URI.create(api.base + "/api/v1/bulk/" + commandId
                + "/abort")).header("Authorization", "Bearer " + Tokens.service()).POST(HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(aborted.statusCode()).as(aborted.body()).isEqualTo(200);
        assertThat(JSON.readTree(aborted.body()).path("state").asText()).isEqualTo("ABORTED");
        assertThat(JSON.readTree(aborted.body()).path("savepoint").asText()).isNotEmpty();

        HttpResponse<String> resumed = HTTP.send(HttpRequest.newBuilder(URI.create(api.base + "/api/v1/bulk/" + commandId
                + "/resume")).header("Authorization", "Bearer " + Tokens.service()).POST(HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(202);
        JsonNode status = awaitEnd(api, commandId);
        assertThat(status.path("state").asText()).as(status.toString()).isEqualTo("COMPLETED");
        assertThat(new BruteForceAcls(id -> collection.find(Filters.eq(DocumentFields.KEY, id)).first())
                .mismatches(collection.find().into(new ArrayList<>()))).as("after the resumed setAcl on the root").isEmpty();
    }

    @Test
    void aSetAclThatIsNotOneIsRefusedNamingTheField() throws Exception {
        try (LocalPipeline pipeline = new LocalPipeline("setacl", GeneratorSettings.DEFAULT_SEED, 2, 1)) {
            LocalApi api = pipeline.api();
            String state = pipeline.generated.stream().filter(d -> d.getType().equals("CustomerFolder")).findFirst()
                    .orElseThrow().getParentId();
            String acl = "{\"aces\": [{\"principal\": \"auditors\", \"permission\": \"READ\", \"granted\": true}]}";
            Map<String, String> refused = Map.of(
                    "{\"action\": \"setAcl\", \"all\": true, \"params\": {\"document\": \"" + state + "\", \"acl\": " + acl + "}}", "action",
                    "{\"action\": \"setAcl\", \"params\": {\"acl\": " + acl + "}}", "params.document",
                    "{\"action\": \"setAcl\", \"params\": {\"document\": \"" + state + "\", \"acl\": {\"aces\": [{}]}}}", "params.acl.aces[0]",
                    "{\"action\": \"delete\", \"all\": true, \"params\": {\"acl\": " + acl + "}}", "params");
            for (Map.Entry<String, String> request : refused.entrySet()) {
                HttpResponse<String> answer = post(api, pipeline.repository, request.getKey());
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
                assertThat(JSON.readTree(answer.body()).path("field").asText()).as(answer.body()).isEqualTo(request.getValue());
            }
            HttpResponse<String> missing = post(api, pipeline.repository, "{\"action\": \"setAcl\", \"params\": {\"document\": \"no-such\", \"acl\": " + acl + "}}");
            assertThat(missing.statusCode()).as(missing.body()).isEqualTo(404);
        }
    }

    /** A folder's own ACL, with a grant of READ to {@link #GRANTEE} added. */
    private static ObjectNode aclWithGrantee(MongoCollection<Document> collection, String folder) throws Exception {
        Document stored = collection.find(Filters.eq(DocumentFields.KEY, folder)).first();
        ObjectNode acl = (ObjectNode) JSON.readTree(stored.get(DocumentFields.ACL, Document.class).toJson());
        acl.withArray(DocumentFields.Acl.ACES).addObject().put(DocumentFields.Acl.PRINCIPAL, GRANTEE)
                .put(DocumentFields.Acl.PERMISSION, Permission.READ.name()).put(DocumentFields.Acl.GRANTED, true);
        return acl;
    }

    private static HttpResponse<String> post(LocalApi api, String repository, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(api.base + "/api/v1/" + repository + "/bulk"))
                .header("Authorization", "Bearer " + Tokens.service()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The command's status once it ended (or failed the test after five minutes). */
    private static JsonNode awaitEnd(LocalApi api, String commandId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (true) {
            JsonNode status = JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(api.base + "/api/v1/bulk/" + commandId))
                    .header("Authorization", "Bearer " + Tokens.service()).build(), HttpResponse.BodyHandlers.ofString()).body());
            String state = status.path("state").asText();
            if (!state.equals("RUNNING") && !state.equals("SCHEDULED")) {
                return status;
            }
            assertThat(System.nanoTime()).as("still %s: %s", state, status).isLessThan(deadline);
            Thread.sleep(500);
        }
    }

    private static long searchTotal(LocalApi api, String repository, String token) throws Exception {
        HttpResponse<byte[]> found = HTTP.send(HttpRequest.newBuilder(URI.create(api.base + "/api/v1/search?repository="
                + repository + "&limit=1")).header("Authorization", "Bearer " + token).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(found.statusCode()).as(new String(found.body(), StandardCharsets.UTF_8)).isEqualTo(200);
        return JSON.readTree(found.body()).path("total").path("value").asLong();
    }

    /** The principals a user's token carries: the user, its groups, Everyone. */
    private static Set<String> principals(String user) throws Exception {
        List<String> groups = SignedJWT.parse(Tokens.user(user)).getJWTClaimsSet().getStringListClaim("groups");
        Set<String> principals = new LinkedHashSet<>(groups == null ? List.of() : groups);
        principals.add(user);
        principals.add(Principals.EVERYONE);
        return principals;
    }
}

package io.volumizer.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.api.testing.LocalApi;
import io.volumizer.api.testing.LocalPipeline;
import io.volumizer.ops.flink.FlinkSessionClient;
import io.volumizer.api.testing.Tokens;
import io.volumizer.generators.BankGenerator;
import io.volumizer.domain.topology.Topology;
import io.volumizer.domain.topology.TopologyFile;
import io.volumizer.schemas.event.DocumentEvent;
import io.volumizer.stores.blob.BlobStore;
import io.volumizer.stores.blob.FileBlobStore;

/**
 * The API over the published topology ({@code topologies/11b.yaml}): a run generated into two live repositories
 * and an archive by the real pipeline, read and written without naming repositories. Two API servers share the
 * stores: one lists children from Elasticsearch (the default), one from MongoDB, so both merges are exercised.
 */
class TopologyApiIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Path PUBLISHED = Path.of("..", "topologies", "11b.yaml");
    private static final String GENERATED_TYPES = "CustomerFolder,IdCard,Account,OpeningLetter,Statement";

    private static LocalPipeline pipeline;
    private static Topology topology;
    private static final Map<String, String> repositoryOf = new HashMap<>();
    private static final List<LocalApi> apis = new ArrayList<>();
    private static String fromElasticsearch;
    private static String fromMongoDb;
    private static int notes;
    private static Path archiveBlobs;

    @BeforeAll
    static void pipelineAndApis() throws Exception {
        archiveBlobs = Files.createTempDirectory("archive-blobs");
        // The archive keeps its blobs in a store of its own; the live repositories', in the run's S3 bucket.
        pipeline = new LocalPipeline("topo", 5, 16, 10, Files.readString(PUBLISHED)
                .replace("    profile: archive\n", "    profile: archive\n    blobStore: " + archiveBlobs + "\n"));
        topology = TopologyFile.load(PUBLISHED);
        for (DocumentEvent document : pipeline.generated) {
            repositoryOf.put(document.getId(), topology.route(document, pipeline.settings.present()));
        }
        fromElasticsearch = start(pipeline.apiOptions());
        fromMongoDb = start(pipeline.apiOptions("--children-from", "mongodb"));
        pipeline.awaitIndexed(fromElasticsearch);
    }

    private static String start(ApiOptions options) throws MalformedURLException {
        LocalApi api = new LocalApi(options);
        apis.add(api);
        return api.base;
    }

    @AfterAll
    static void stop() throws Exception {
        for (LocalApi api : apis) {
            api.close();
        }
        if (pipeline != null) {
            pipeline.close();
        }
        if (archiveBlobs != null) {
            try (Stream<Path> files = Files.walk(archiveBlobs)) {
                files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
            }
        }
    }

    @Test
    void aDocumentIsFoundWithoutNamingItsRepositoryAndSaysWhichItIs() throws Exception {
        DocumentEvent archived = archivedStatement("us-west");
        JsonNode statement = json(get(fromElasticsearch, "/api/v1/documents/" + archived.getId()));
        assertThat(statement.path("repository").asText()).isEqualTo("archives");
        assertThat(statement.path("blob").path("href").asText()).isEqualTo("/api/v1/archives/documents/" + archived.getId() + "/blob");

        HttpResponse<byte[]> blob = get(fromElasticsearch, "/api/v1/documents/" + archived.getId() + "/blob");
        assertThat(blob.statusCode()).isEqualTo(200);
        assertThat(new String(blob.body(), 0, 5, StandardCharsets.US_ASCII)).isEqualTo("%PDF-");
        FileBlobStore archiveStore = new FileBlobStore(archiveBlobs);
        assertThat(archiveStore.get(BlobStore.sha256(blob.body()))).as("stored in the archive's own blob store").isPresent();
        DocumentEvent live = pipeline.generated.stream().filter(d -> d.getType().equals("Statement"))
                .filter(d -> !repositoryOf.get(d.getId()).equals("archives")).findFirst().orElseThrow();
        byte[] liveBlob = get(fromElasticsearch, "/api/v1/documents/" + live.getId() + "/blob").body();
        assertThat(archiveStore.get(BlobStore.sha256(liveBlob))).as("a live statement's blob is not").isEmpty();

        // The breadcrumb crosses from the archive into the live repository and up to the root in us-east.
        JsonNode ancestors = json(get(fromElasticsearch, "/api/v1/documents/" + archived.getId() + "/ancestors"))
                .path("ancestors");
        assertThat(ancestors.findValuesAsText("id")).endsWith(archived.getParentId());
        assertThat(ancestors.get(0).path("repository").asText()).isEqualTo("us-east");
        assertThat(ancestors.get(ancestors.size() - 1).path("repository").asText()).isEqualTo("us-west");
        assertThat(ancestors.findValuesAsText("type")).containsExactly("Root", "State", "CustomerFolder", "Account");

        // The repository-scoped routes keep working, and find nothing in a repository that does not hold it.
        assertThat(get(fromElasticsearch, "/api/v1/archives/documents/" + archived.getId()).statusCode()).isEqualTo(200);
        assertThat(get(fromElasticsearch, "/api/v1/us-west/documents/" + archived.getId()).statusCode()).isEqualTo(404);
        assertThat(get(fromElasticsearch, "/api/v1/documents/no-such-document").statusCode()).isEqualTo(404);
    }

    @Test
    void childrenOfAnAccountListLiveAndArchivedStatementsTogetherInKeysetPagesWhileDocumentsAreAdded() throws Exception {
        List<String> addedUnderTheFirstAccount = new ArrayList<>();
        for (String api : List.of(fromElasticsearch, fromMongoDb)) {
            for (String sort : List.of("name", "date")) {
                DocumentEvent account = liveAccounts().get(sort.equals("name") ? 0 : 1);
                Set<String> expected = pipeline.generated.stream().filter(d -> account.getId().equals(d.getParentId()))
                        .map(DocumentEvent::getId).collect(Collectors.toCollection(TreeSet::new));
                List<String> listed = new ArrayList<>();
                Set<String> repositories = new TreeSet<>();
                List<String> added = new ArrayList<>();
                String next = null;
                for (int page = 0; page < 50; page++) {
                    JsonNode body = json(get(api, "/api/v1/documents/" + account.getId() + "/children?limit=4&sort=" + sort
                            + (next == null ? "" : "&cursor=" + next)));
                    for (JsonNode child : body.path("children")) {
                        listed.add(child.path("id").asText());
                        repositories.add(child.path("repository").asText());
                    }
                    if (page == 1 && sort.equals("name")) {
                        // Added after the cursor in the listing's order: a later page must show them, once.
                        added.add(addNote(account, "zz-note-" + notes++));
                        added.add(addNote(account, "zz-note-" + notes++));
                        awaitListed(api, account.getId(), added);
                        addedUnderTheFirstAccount.addAll(added);
                    }
                    next = body.path("next").isNull() ? null : body.path("next").asText();
                    if (next == null) {
                        break;
                    }
                }
                assertThat(listed).as("%s by %s", api, sort).doesNotHaveDuplicates().containsAll(expected).containsAll(added);
                assertThat(repositories).as("%s by %s", api, sort).contains("archives").containsAnyOf("us-east", "us-west");
            }
        }

        // Navigation under a customer asks one shard of each repository sharded by customer number (its children,
        // the notes added above included, carry its number), and every shard of the archive, which is not.
        DocumentEvent account = liveAccounts().get(0);
        // The notes awaited in MongoDB's listing may not be searchable yet: both counts below must see them all.
        awaitListed(fromElasticsearch, account.getId(), addedUnderTheFirstAccount);
        JsonNode everywhere = json(get(fromElasticsearch, "/api/v1/documents/" + account.getId() + "/children?limit=50"));
        assertThat(everywhere.path("shards").path("total").asInt()).as(everywhere.toString()).isEqualTo(1 + 1 + 2);
        assertThat(everywhere.path("shards").path("successful").asInt()).isEqualTo(1 + 1 + 2);
        String live = repositoryOf.get(account.getId());
        JsonNode inItsRepository = json(get(fromElasticsearch, "/api/v1/" + live + "/documents/" + account.getId()
                + "/children?limit=50"));
        assertThat(inItsRepository.path("shards").path("total").asInt()).isEqualTo(1);
        assertThat(inItsRepository.path("children").findValuesAsText("id")).as("its live statements and notes")
                .containsAll(pipeline.generated.stream().filter(d -> account.getId().equals(d.getParentId()))
                        .filter(d -> repositoryOf.get(d.getId()).equals(live)).map(DocumentEvent::getId).toList())
                .hasSize(everywhere.path("children").size() - (int) pipeline.generated.stream()
                        .filter(d -> account.getId().equals(d.getParentId()))
                        .filter(d -> repositoryOf.get(d.getId()).equals("archives")).count());
    }

    @Test
    void searchAcrossRepositoriesMergesHitsAggregationsAndPagesAndTargetsAShardWithACustomer() throws Exception {
        Map<String, Long> statementsPer = pipeline.generated.stream().filter(d -> d.getType().equals("Statement"))
                .collect(Collectors.groupingBy(d -> repositoryOf.get(d.getId()), Collectors.counting()));
        JsonNode all = search("type=Statement&aggs=repository&limit=1");
        Map<String, Long> counted = new HashMap<>();
        all.path("aggs").path("repository").forEach(b -> counted.put(b.path("key").asText(), b.path("count").asLong()));
        assertThat(counted).isEqualTo(statementsPer);

        List<String> ids = new ArrayList<>();
        String next = null;
        for (int page = 0; page < 200; page++) {
            JsonNode hits = search("type=Statement&sort=date&limit=9" + (next == null ? "" : "&cursor=" + next));
            hits.path("hits").forEach(hit -> ids.add(hit.path("id").asText()));
            next = hits.path("next").isNull() ? null : hits.path("next").asText();
            if (next == null) {
                break;
            }
        }
        assertThat(ids).doesNotHaveDuplicates().hasSize((int) statementsPer.values().stream().mapToLong(Long::longValue).sum());

        JsonNode archives = search("repository=archives&type=Statement&limit=1");
        assertThat(archives.path("total").path("value").asLong()).isEqualTo(statementsPer.get("archives"));
        assertThat(archives.path("shards").path("total").asInt()).isEqualTo(2);

        DocumentEvent western = pipeline.generated.stream().filter(d -> d.getType().equals("CustomerFolder"))
                .filter(d -> repositoryOf.get(d.getId()).equals("us-west")).findFirst().orElseThrow();
        Object number = western.getProperties().get(BankGenerator.CUSTOMER_NUMBER);
        long liveOfCustomer = pipeline.generated.stream()
                .filter(d -> number.equals(d.getProperties().get(BankGenerator.CUSTOMER_NUMBER)))
                .filter(d -> repositoryOf.get(d.getId()).equals("us-west")).count();
        // Generated types only: the write test adds notes of this customer.
        JsonNode targeted = search("repository=us-west&customer=" + number + "&limit=1&type=" + GENERATED_TYPES);
        assertThat(targeted.path("shards").path("total").asInt()).isEqualTo(1);
        assertThat(targeted.path("total").path("value").asLong()).isEqualTo(liveOfCustomer);
        // Across repositories, each part asks what it needs: one shard of each live repository, sharded by customer,
        // and every shard of the archive, which is not; hits, totals, aggregations and pages merged.
        long ofCustomer = pipeline.generated.stream()
                .filter(d -> number.equals(d.getProperties().get(BankGenerator.CUSTOMER_NUMBER))).count();
        JsonNode everywhere = search("customer=" + number + "&limit=1&aggs=repository&type=" + GENERATED_TYPES);
        assertThat(everywhere.path("shards").path("total").asInt()).as(everywhere.toString()).isEqualTo(1 + 1 + 2);
        assertThat(everywhere.path("total").path("value").asLong()).isEqualTo(ofCustomer);
        assertThat(everywhere.path("aggs").path("repository").findValuesAsText("key")).contains("us-west", "archives");
        List<String> ofCustomerPaged = new ArrayList<>();
        String after = null;
        for (int page = 0; page < 200; page++) {
            JsonNode hits = search("customer=" + number + "&sort=date&limit=7&type=" + GENERATED_TYPES
                    + (after == null ? "" : "&cursor=" + after));
            hits.path("hits").forEach(hit -> ofCustomerPaged.add(hit.path("id").asText()));
            after = hits.path("next").isNull() ? null : hits.path("next").asText();
            if (after == null) {
                break;
            }
        }
        List<String> byDate = pipeline.generated.stream()
                .filter(d -> number.equals(d.getProperties().get(BankGenerator.CUSTOMER_NUMBER)))
                .sorted(Comparator.comparing(DocumentEvent::getCreated).thenComparing(DocumentEvent::getId))
                .map(DocumentEvent::getId).toList();
        assertThat(ofCustomerPaged).as("the parts' pages merged by date, then id").containsExactlyElementsOf(byDate);
    }

    @Test
    void writesAreRoutedByTheTopologysRulesWhateverRepositoryTheyAreSentTo() throws Exception {
        DocumentEvent account = liveAccounts().stream().filter(a -> repositoryOf.get(a.getId()).equals("us-west"))
                .findFirst().orElseThrow();
        Object number = account.getProperties().get(BankGenerator.CUSTOMER_NUMBER);
        Object state = account.getProperties().get(BankGenerator.STATE);
        HttpResponse<byte[]> created = write("POST", "/api/v1/us-east/documents?wait=true", "{\"parentId\":\""
                + account.getId() + "\",\"type\":\"Note\",\"name\":\"routed-note\",\"properties\":{\"state\":\""
                + state + "\",\"customerNumber\":\"" + number + "\"}}");
        assertThat(created.statusCode()).as(new String(created.body(), StandardCharsets.UTF_8)).isEqualTo(201);
        String location = created.headers().firstValue("Location").orElseThrow();
        assertThat(location).startsWith("/api/v1/us-west/documents/");
        String id = location.substring(location.lastIndexOf('/') + 1);
        assertThat(json(get(fromElasticsearch, "/api/v1/documents/" + id)).path("repository").asText()).isEqualTo("us-west");

        // The routing property of a sharded repository cannot change: the document would be on the wrong shard.
        HttpResponse<byte[]> moved = write("PUT", "/api/v1/us-west/documents/" + id,
                "{\"properties\":{\"state\":\"" + state + "\",\"customerNumber\":\"0000000000\"}}");
        assertThat(moved.statusCode()).isEqualTo(400);
        assertThat(json(moved).path("field").asText()).isEqualTo("properties.customerNumber");

        // Another value than its parent's: the customer's documents would not stay on one shard.
        HttpResponse<byte[]> foreign = write("POST", "/api/v1/us-west/documents", "{\"parentId\":\"" + id
                + "\",\"type\":\"Note\",\"name\":\"foreign-note\",\"properties\":{\"customerNumber\":\"0000000000\"}}");
        assertThat(foreign.statusCode()).isEqualTo(400);
        assertThat(json(foreign).path("field").asText()).isEqualTo("properties.customerNumber");
        // A property a rule routes by cannot change either: the document would belong to another repository.
        HttpResponse<byte[]> movedEast = write("PUT", "/api/v1/us-west/documents/" + id,
                "{\"properties\":{\"state\":\"NY\",\"customerNumber\":\"" + number + "\"}}");
        assertThat(movedEast.statusCode()).isEqualTo(400);
        assertThat(json(movedEast).path("field").asText()).isEqualTo("properties.state");

        // A child given no routing properties takes its parent's, and goes where they route it, with its parent.
        HttpResponse<byte[]> inheriting = write("POST", "/api/v1/us-east/documents?wait=true", "{\"parentId\":\""
                + id + "\",\"type\":\"Note\",\"name\":\"inheriting-note\"}");
        assertThat(inheriting.statusCode()).as(new String(inheriting.body(), StandardCharsets.UTF_8)).isEqualTo(201);
        assertThat(inheriting.headers().firstValue("Location").orElseThrow()).startsWith("/api/v1/us-west/documents/");
        assertThat(json(inheriting).path("properties").path("customerNumber").asText()).isEqualTo(number.toString());
        assertThat(json(inheriting).path("properties").path("state").asText()).isEqualTo(state.toString());

        // Under a parent without routing properties, a child goes where its own route it: here, another repository.
        HttpResponse<byte[]> folder = write("POST", "/api/v1/us-west/documents?wait=true", "{\"parentId\":\""
                + BankGenerator.ROOT_ID + "\",\"type\":\"Folder\",\"name\":\"topology-folder\"}");
        assertThat(folder.statusCode()).as(new String(folder.body(), StandardCharsets.UTF_8)).isEqualTo(201);
        assertThat(folder.headers().firstValue("Location").orElseThrow()).startsWith("/api/v1/us-east/documents/");
        String folderId = json(folder).path("id").asText();
        HttpResponse<byte[]> western = write("POST", "/api/v1/us-east/documents?wait=true", "{\"parentId\":\""
                + folderId + "\",\"type\":\"Note\",\"name\":\"western-note\",\"properties\":{\"state\":\"CA\"}}");
        assertThat(western.statusCode()).as(new String(western.body(), StandardCharsets.UTF_8)).isEqualTo(201);
        assertThat(western.headers().firstValue("Location").orElseThrow()).startsWith("/api/v1/us-west/documents/");

        // The folder's only child is in another repository: the folder cannot be deleted before it (asked of the
        // server whose children come from MongoDB, which has the child already).
        HttpResponse<byte[]> refused = write(fromMongoDb, "DELETE", "/api/v1/us-east/documents/" + folderId, null);
        assertThat(refused.statusCode()).as(new String(refused.body(), StandardCharsets.UTF_8)).isEqualTo(409);
    }

    @Test
    void theTextInsideAnUploadedPdfFindsItsDocumentInALiveRepository() throws Exception {
        DocumentEvent account = liveAccounts().stream().filter(a -> repositoryOf.get(a.getId()).equals("us-west"))
                .findFirst().orElseThrow();
        String word = "uploadedword" + System.nanoTime();

        JsonNode created = upload(account, "receipt.pdf", pdf(List.of("Scanned receipt " + word)));
        assertThat(created.path("repository").asText()).isEqualTo("us-west");

        // The index reads the file's bytes from the repository's blob store, where the API stored them; a hit says
        // its text is in, and the document read back does not carry it (MongoDB keeps it for a reindex).
        JsonNode found = awaitFound(word);
        assertThat(found.path("hits").findValuesAsText("id")).containsExactly(created.path("id").asText());
        assertThat(found.path("hits").get(0).path("fileTextIndexed").asBoolean()).isTrue();
        JsonNode read = json(get(fromElasticsearch, "/api/v1/documents/" + created.path("id").asText()));
        assertThat(read.has("fileText")).isFalse();
        assertThat(read.path("id").asText()).isEqualTo(created.path("id").asText());
    }

    @Test
    void aPdfBombUploadedIsIndexedWithItsFirstCharactersAndStopsNothing() throws Exception {
        DocumentEvent account = liveAccounts().get(0);
        String first = "bombstart" + System.nanoTime();
        String last = "bombend" + System.nanoTime();
        List<String> lines = new ArrayList<>(List.of(first));
        lines.addAll(java.util.Collections.nCopies(20_000, "bomb ".repeat(100)));
        lines.add(last);
        byte[] bomb = pdf(lines);
        assertThat(bomb.length).as("a small file of %,d characters of text", 20_000 * 500).isLessThan(1_000_000);
        long restartsBefore = new FlinkSessionClient(LocalPipeline.FLINK).restarts(pipeline.importJob());

        JsonNode created = upload(account, "bomb.pdf", bomb);

        assertThat(awaitFound(first).path("hits").findValuesAsText("id")).containsExactly(created.path("id").asText());
        assertThat(search("q=" + last).path("total").path("value").asLong())
                .as("the text past --file-text-max-chars is not read").isZero();
        assertThat(new FlinkSessionClient(LocalPipeline.FLINK).restarts(pipeline.importJob())).as("restarts of import-and-index").isEqualTo(restartsBefore);
    }

    /** A PDF of one page showing {@code lines}, one under the other, compressed as PDFBox writes them. */
    private static byte[] pdf(List<String> lines) throws Exception {
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        try (PDDocument document = new PDDocument()) {
            PDPage page = new PDPage();
            document.addPage(page);
            try (PDPageContentStream content = new PDPageContentStream(document, page)) {
                content.beginText();
                content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                content.newLineAtOffset(72, 720);
                for (String line : lines) {
                    content.showText(line);
                    content.newLineAtOffset(0, -14);
                }
                content.endText();
            }
            document.save(pdf);
        }
        return pdf.toByteArray();
    }

    /** Uploads a file under the account through the API (multipart, as a browser does) and returns the new document. */
    private static JsonNode upload(DocumentEvent account, String filename, byte[] pdf) throws Exception {
        String boundary = "upload" + System.nanoTime();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"document\"\r\n\r\n{\"parentId\":\""
                + account.getId() + "\",\"type\":\"Scan\",\"name\":\"" + filename + "\"}\r\n--" + boundary
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + filename + "\"\r\n"
                + "Content-Type: application/pdf\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.write(pdf);
        body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpResponse<byte[]> created = HTTP.send(HttpRequest.newBuilder(URI.create(fromElasticsearch
                + "/api/v1/us-east/documents?wait=true")).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + Tokens.service()).header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(created.statusCode()).as(new String(created.body(), StandardCharsets.UTF_8)).isEqualTo(201);
        return json(created);
    }

    /** Searches for {@code word} until something is found, or a minute passed. */
    private static JsonNode awaitFound(String word) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        JsonNode found = search("q=" + word);
        while (found.path("total").path("value").asLong() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(250);
            found = search("q=" + word);
        }
        return found;
    }

    private static List<DocumentEvent> liveAccounts() {
        return pipeline.generated.stream().filter(d -> d.getType().equals("Account")).toList();
    }

    private static DocumentEvent archivedStatement(String liveRepository) {
        return pipeline.generated.stream().filter(d -> repositoryOf.get(d.getId()).equals("archives"))
                .filter(d -> repositoryOf.get(d.getParentId()).equals(liveRepository)).findFirst().orElseThrow();
    }

    /** Adds a note under the account (in the repository the rules give it) and waits until MongoDB has it. */
    private static String addNote(DocumentEvent account, String name) throws Exception {
        HttpResponse<byte[]> created = write("POST", "/api/v1/us-east/documents?wait=true", "{\"parentId\":\""
                + account.getId() + "\",\"type\":\"Note\",\"name\":\"" + name + "\"}");
        assertThat(created.statusCode()).as(new String(created.body(), StandardCharsets.UTF_8)).isEqualTo(201);
        return json(created).path("id").asText();
    }

    /** Waits until a listing of the account's children shows the documents (Elasticsearch's after its refresh). */
    private static void awaitListed(String api, String parentId, List<String> ids) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode children = json(get(api, "/api/v1/documents/" + parentId + "/children?limit=50&sort=name"));
            if (children.path("children").findValuesAsText("id").containsAll(ids)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(ids + " not listed under " + parentId + " within 30 s");
    }

    private static JsonNode search(String query) throws Exception {
        HttpResponse<byte[]> response = get(fromElasticsearch, "/api/v1/search?" + query);
        assertThat(response.statusCode()).as("search %s: %s", query, new String(response.body(), StandardCharsets.UTF_8))
                .isEqualTo(200);
        return json(response);
    }

    private static HttpResponse<byte[]> get(String api, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(60)).GET()
                .header("Authorization", "Bearer " + Tokens.service()).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static HttpResponse<byte[]> write(String method, String path, String body) throws Exception {
        return write(fromElasticsearch, method, path, body);
    }

    private static HttpResponse<byte[]> write(String api, String method, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + Tokens.service()).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static JsonNode json(HttpResponse<byte[]> response) throws IOException {
        return JSON.readTree(response.body());
    }
}

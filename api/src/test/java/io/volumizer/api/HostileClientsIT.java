package io.volumizer.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

import io.volumizer.api.testing.LocalApi;
import io.volumizer.api.testing.LocalPipeline;
import io.volumizer.api.testing.Tokens;
import io.volumizer.generators.BankGenerator;
import io.volumizer.generators.BankPrincipals;
import io.volumizer.generators.GeneratorSettings;
import io.volumizer.ops.identity.DemoRealm;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * Hostile clients (issue 55), against the API on the real local services, one test an attack:
 * <ol>
 * <li>bodies too large for memory: streamed without a length, announced with one, or a JSON nested too deep;</li>
 * <li>a multipart request of too many parts;</li>
 * <li>token guessing from an address real users share: the penalty must stop the guesser, not the valid tokens;</li>
 * <li>cursors that leak scores and ids, tampered with, or borrowed from another user;</li>
 * <li>a name oracle: whether a create's name is held by a document the caller may not read;</li>
 * <li>an event too large for the documents topic, under a free name or a hidden document's;</li>
 * <li>a hidden-children oracle: deleting and renaming a folder whose only child the caller may not read;</li>
 * <li>error bodies that tell internals (exceptions, hosts, ports) and carry no correlation id;</li>
 * <li>the public readiness probe naming the backends;</li>
 * <li>searches too expensive for the engine: many prefixes, short prefixes.</li>
 * </ol>
 * The user U is the staff of the first account's branch: it writes the account and what inherits from it, manages
 * nothing. An administrator makes, under that account, a folder F that U writes, holding a document H that U may not
 * read (it blocks inheritance), a folder G whose only child is hidden the same way, and an empty folder G2.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostileClientsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final long MIB = 1024 * 1024;
    /** An ACL that blocks inheritance and lets compliance alone in: U may not even read what has it. */
    private static final String HIDDEN = ", \"acl\": {\"blockInheritance\": true, \"aces\": [{\"principal\": \""
            + BankPrincipals.COMPLIANCE + "\", \"permission\": \"WRITE\", \"granted\": true}]}";
    /** What an error body must never contain. */
    private static final List<String> INTERNALS = List.of("Exception", "java.", "com.mongodb", "org.apache", "127.0.0.1",
            "localhost");
    private static final Pattern SERVICE_PORT = Pattern.compile(":(27017|27018|9092|9200|9201|8081|8085|9000|8180)\\b");

    /** Every error answer the tests received, for {@link #errorsCarryACorrelationIdAndNoInternals}. */
    private static final List<Answer> ERRORS = Collections.synchronizedList(new ArrayList<>());
    private static final Map<String, Fetched> TOKENS = new HashMap<>();

    private static LocalPipeline pipeline;
    private static LocalApi local;
    private static String run;
    /** The account U writes, and a document of it that U reads. */
    private static String account;
    /** U, and B, a colleague of the same branch, who reads what U reads. */
    private static String user;
    private static String colleague;
    private static String folder;
    private static String hidden;
    private static String hiddenName;
    private static String withHiddenChild;
    private static String hiddenChild;
    private static String empty;

    /** An error answer: the request, its status, its X-Request-Id header and its body. */
    record Answer(String request, int status, String requestId, String body) {
        @Override
        public String toString() {
            return request + " -> " + status + " " + body;
        }
    }

    private record Fetched(String token, Instant at) {
    }

    /** A request's fate: its answer, or null when the server closed the connection before the client read one. */
    private record Delivery(HttpResponse<byte[]> answer, IOException closed) {
    }

    @BeforeAll
    static void repositoryUsersAndFolders() throws Exception {
        pipeline = new LocalPipeline("hostile", GeneratorSettings.DEFAULT_SEED, 3, 6);
        run = pipeline.run;
        local = pipeline.api();
        DocumentEvent first = pipeline.generated.stream().filter(d -> d.getType().equals("Account")).findFirst()
                .orElseThrow();
        account = first.getId();
        List<String> staff = DemoRealm.staff(String.valueOf(first.getProperties().get(BankGenerator.STATE)));
        user = staff.get(0);
        colleague = staff.get(1);

        folder = createdByAdministrator("f-" + run, account, "Folder", "f", "");
        hiddenName = "hidden-" + run;
        hidden = createdByAdministrator("h-" + run, folder, "Note", hiddenName, HIDDEN);
        withHiddenChild = createdByAdministrator("g-" + run, folder, "Folder", "g", "");
        hiddenChild = createdByAdministrator("k-" + run, withHiddenChild, "Note", "k", HIDDEN);
        empty = createdByAdministrator("g2-" + run, folder, "Folder", "g2", "");
        // Children are listed from the index: G's one child must be there, or G would look empty for want of it.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (childrenOf(withHiddenChild) < 1 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(childrenOf(withHiddenChild)).as("G's hidden child indexed").isEqualTo(1);
        assertThat(get(documents() + "/" + hidden, token(user)).statusCode()).as("H hidden from U").isEqualTo(404);
        assertThat(get(documents() + "/" + withHiddenChild, token(user)).statusCode()).as("G read by U").isEqualTo(200);
    }

    @AfterAll
    static void stop() throws Exception {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    // ---- 1. bodies too large

    @Test
    @Order(1)
    void bodiesAreCappedWhileTheyStream() throws Exception {
        // An endless title: JSON that parses until its end, which never comes before 100 MB.
        Flood endless = new Flood("{\"parentId\":\"" + folder + "\",\"type\":\"Note\",\"name\":\"flood-" + run
                + "\",\"title\":\"", "a", "", 100_000_000L);
        Delivery flood = post(endless, false);
        assertThat(endless.pulled()).as("bytes of the 100 MB chunked body the server made the client send")
                .isLessThan(8 * MIB);
        if (flood.answer() != null) {
            assertError(flood.answer(), 413, "payload_too_large");
        }

        Delivery announced = post(Flood.emptyObjects(20_000_000L), true);
        assertThat(announced.closed()).as("20 MB with Content-Length answered").isNull();
        assertError(announced.answer(), 413, "payload_too_large");
        Delivery chunked = post(Flood.emptyObjects(2_000_000L), false);
        assertThat(chunked.closed()).as("2 MB chunked answered").isNull();
        assertError(chunked.answer(), 413, "payload_too_large");

        String deep = "[".repeat(5_000) + "]".repeat(5_000);
        assertError(write("POST", documents(), deep, token(user)), 400, "invalid_json");
    }

    // ---- 2. too many parts

    @Test
    @Order(2)
    void aMultipartCreateOfTooManyPartsIsRefused() throws Exception {
        // A document's form has two parts, each once: the first other part is refused, before the rest is parsed.
        for (HttpResponse<byte[]> answer : List.of(multipart(999, 1), multipart(1_000, 1024))) {
            assertError(answer, 400, "invalid");
            assertThat(JSON.readTree(answer.body()).path("field").asText()).isEqualTo("part1");
        }
    }

    /** A create as U of {@code parts} form parts: its document, then more of {@code bytesEach} bytes each. */
    private static HttpResponse<byte[]> multipart(int parts, int bytesEach) throws Exception {
        String boundary = "parts-" + run;
        StringBuilder body = new StringBuilder("--" + boundary + "\r\nContent-Disposition: form-data; name=\"document\""
                + "\r\n\r\n" + note(folder, "parts-" + parts + "-" + run, "") + "\r\n");
        String filler = "x".repeat(bytesEach);
        for (int part = 1; part < parts; part++) {
            body.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"part").append(part)
                    .append("\"\r\n\r\n").append(filler).append("\r\n");
        }
        body.append("--").append(boundary).append("--\r\n");
        return send(request(local.base, documents()).header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(BodyPublishers.ofString(body.toString())), token(user));
    }

    // ---- 3. token guessing

    @Test
    @Order(3)
    void penaltiesStopGuessersNotTheUsersOfTheirAddress() throws Exception {
        // An API of its own: the penalties it gives are its own, and the other tests' API gives none.
        try (LocalApi guessed = new LocalApi(pipeline.apiOptions())) {
            String document = documents() + "/" + account;
            for (int i = 0; i < 20; i++) {
                assertThat(send(request(guessed.base, document).GET(), null).statusCode()).as("without a token")
                        .isIn(401, 429);
            }
            for (int i = 0; i < 20; i++) {
                assertThat(send(request(guessed.base, document).GET(), "garbage-" + i).statusCode())
                        .as("a garbage token").isIn(401, 429);
            }

            String valid = token(user);
            List<CompletableFuture<HttpResponse<byte[]>>> reads = IntStream.range(0, 10)
                    .mapToObj(i -> sendAsync(request(guessed.base, document).GET(), valid)).toList();
            assertThat(reads.stream().map(read -> read.join().statusCode()).toList())
                    .as("a valid token's concurrent reads from the guessers' address").containsOnly(200);

            HttpResponse<byte[]> guess = null;
            for (int i = 0; i < 20; i++) {
                guess = send(request(guessed.base, document).GET(), "the-same-guess-" + run);
            }
            assertThat(guess.statusCode()).as("the same invalid token, the 20th time").isEqualTo(429);
            assertThat(guess.headers().firstValue("Retry-After")).as("its Retry-After").isPresent();
        }
    }

    // ---- 4. cursors

    @Test
    @Order(4)
    void cursorsAreOpaqueAndBoundToTheUserTheyWereIssuedTo() throws Exception {
        String search = "/api/v1/" + pipeline.repository + "/search?q=statement&limit=1";
        HttpResponse<byte[]> first = get(search, token(user));
        assertThat(first.statusCode()).as(text(first)).isEqualTo(200);
        JsonNode page = JSON.readTree(first.body());
        String cursor = page.path("next").asText(null);
        assertThat(cursor).as("a page of one hit has a next cursor: %s", page).isNotBlank();
        String hit = page.path("hits").path(0).path("id").asText();

        assertThat(decoded(cursor)).as("the cursor, base64url-decoded").doesNotContain("score").doesNotContain(hit);
        int middle = cursor.length() / 2;
        String tampered = cursor.substring(0, middle) + (cursor.charAt(middle) == 'A' ? 'B' : 'A')
                + cursor.substring(middle + 1);
        assertError(get(search + "&cursor=" + encoded(tampered), token(user)), 400, "invalid_cursor");
        assertError(get(search + "&cursor=" + encoded(cursor), token(colleague)), 400, "invalid_cursor");
    }

    /** What base64url decoding finds in each run of base64url characters of {@code cursor}; none where it fails. */
    private static String decoded(String cursor) {
        StringBuilder text = new StringBuilder();
        for (String part : cursor.split("[^A-Za-z0-9_-]+")) {
            try {
                text.append(new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8)).append('\n');
            } catch (IllegalArgumentException notBase64) {
                // not base64url: nothing readable in clear
            }
        }
        return text.toString();
    }

    // ---- 5. name oracle

    @Test
    @Order(5)
    void aCreateDoesNotTellWhetherAHiddenDocumentHoldsItsName() throws Exception {
        HttpResponse<byte[]> held = write("POST", documents(), note(folder, hiddenName, ""), token(user));
        HttpResponse<byte[]> free = write("POST", documents(), note(folder, "free-" + run, ""), token(user));

        assertThat(held.statusCode()).as("the name H holds: %s; a free one: %s", text(held), text(free))
                .isEqualTo(free.statusCode()).isNotEqualTo(409);
        assertThat(fields(held)).as("fields of both answers").isEqualTo(fields(free));
        assertThat(List.of(everything(held), everything(free))).as("H's id in either answer")
                .noneMatch(answer -> answer.contains(hidden));
    }

    // ---- 6. oversized events

    @Test
    @Order(6)
    void anEventTooLargeForTheTopicIsRefusedWhateverItsName() throws Exception {
        // 1.5 MB of properties, each value within what one property may hold.
        String properties = IntStream.range(0, 48).mapToObj(i -> "\"p" + i + "\":\"" + "x".repeat(32_000) + "\"")
                .collect(Collectors.joining(",", ", \"properties\": {", "}"));
        for (String name : List.of("large-" + run, hiddenName)) {
            HttpResponse<byte[]> refused = write("POST", documents(), note(folder, name, properties), token(user));
            assertThat(refused.statusCode() / 100).as("%s: no 2xx, nothing stored (%s)", name, text(refused)).isNotEqualTo(2);
            assertError(refused, 413, "payload_too_large");
        }
    }

    // ---- 7. hidden-children oracle

    @Test
    @Order(7)
    void deletesAndRenamesDoNotTellWhetherAFolderHasHiddenChildren() throws Exception {
        String version = etag(hiddenChild);

        alike("DELETE without ?recursive", "DELETE", "", null);
        Outcome recursive = alike("DELETE ?recursive=true", "DELETE", "?recursive=true", null);
        assertThat(recursive.status()).as("a recursive delete by U, who may write but not manage").isEqualTo(403);
        alike("a rename", "PUT", "", "{\"name\": \"renamed-%s\"}");

        // Keyed like the hidden child's tombstone would be (by its parent, G): once this is applied, so would that be.
        createdByAdministrator("barrier-" + run, withHiddenChild, "Note", "barrier", "");
        assertThat(etag(hiddenChild)).as("the hidden child's version after refused deletes").isEqualTo(version);
    }

    /** A status and an error code. */
    private record Outcome(int status, String error) {
    }

    /**
     * The same request by U on G (its only child hidden) and on G2 (empty); their outcomes must be alike.
     *
     * @param body the request's body, in which %s stands for the folder's id; null for none
     */
    private static Outcome alike(String what, String method, String query, String body) throws Exception {
        List<Outcome> outcomes = new ArrayList<>();
        List<String> answers = new ArrayList<>();
        for (String id : List.of(withHiddenChild, empty)) {
            HttpResponse<byte[]> answer = write(method, documents() + "/" + id + query, body == null ? null
                    : body.formatted(id), token(user));
            outcomes.add(new Outcome(answer.statusCode(), jsonOrMissing(answer.body()).path("error").asText(null)));
            answers.add(text(answer));
        }
        assertThat(outcomes.get(0)).as("%s of G, then of G2: %s", what, answers).isEqualTo(outcomes.get(1));
        return outcomes.get(0);
    }

    // ---- 9. readiness

    @Test
    @Order(9)
    void thePublicReadinessSaysUpOrDownAndNothingElse() throws Exception {
        HttpResponse<byte[]> ready = get("/health/ready", token(user));
        assertThat(fields(ready)).as(text(ready)).containsExactly("status");
        assertThat(JSON.readTree(ready.body()).path("status").asText()).isIn("UP", "DOWN");

        HttpResponse<byte[]> probe = send(request(local.management, "/health/ready").GET(), null);
        assertThat(fields(probe)).as("the management port's readiness: %s", text(probe)).contains("status", "backends");
    }

    // ---- 10. expensive searches

    @Test
    @Order(10)
    void searchesTooExpensiveForTheEngineAreRefused() throws Exception {
        String twentyPrefixes = IntStream.range(0, 20).mapToObj(i -> "pre" + (char) ('a' + i) + "*")
                .collect(Collectors.joining(" "));
        assertError(search(twentyPrefixes), 400, "query_too_expensive");
        assertError(search("a*"), 400, "query_too_expensive");
    }

    private static HttpResponse<byte[]> search(String q) throws Exception {
        return get("/api/v1/" + pipeline.repository + "/search?q=" + encoded(q), token(user));
    }

    // ---- 8. what errors tell: last, over every error the tests above received

    @Test
    @Order(Integer.MAX_VALUE)
    void errorsCarryACorrelationIdAndNoInternals() throws Exception {
        String admin = Tokens.service();
        assertThat(get(documents() + "/x", admin, "If-Match", "\"unterminated").statusCode())
                .as("a malformed If-Match").isGreaterThanOrEqualTo(400);
        assertThat(get("/api/v1/" + pipeline.repository + "/search?sort=size", admin).statusCode())
                .as("an invalid sort").isGreaterThanOrEqualTo(400);
        assertThat(get("/api/v1/nosuch" + run + "/documents/x", admin).statusCode())
                .as("an unknown repository").isGreaterThanOrEqualTo(400);

        Map<String, List<String>> problems = new LinkedHashMap<>();
        for (Answer answer : List.copyOf(ERRORS)) {
            List<String> wrong = new ArrayList<>();
            JsonNode error = jsonOrMissing(answer.body().getBytes(StandardCharsets.UTF_8));
            for (String field : List.of("error", "message", "correlationId")) {
                if (!error.path(field).isTextual() || error.path(field).asText().isBlank()) {
                    wrong.add("no string '" + field + "'");
                }
            }
            if (answer.requestId() == null || !answer.requestId().equals(error.path("correlationId").asText(null))) {
                wrong.add("X-Request-Id " + answer.requestId() + " is not its correlationId");
            }
            INTERNALS.stream().filter(answer.body()::contains).forEach(internal -> wrong.add("tells '" + internal + "'"));
            if (SERVICE_PORT.matcher(answer.body()).find()) {
                wrong.add("names a service's port");
            }
            if (!wrong.isEmpty()) {
                problems.put(answer.toString(), wrong);
            }
        }
        assertThat(ERRORS).as("error answers received").hasSizeGreaterThanOrEqualTo(3);
        assertThat(problems).as("error answers of the %d received that are not as they should be", ERRORS.size())
                .isEmpty();
    }

    // ---- helpers

    private static String documents() {
        return "/api/v1/" + pipeline.repository + "/documents";
    }

    /** A note's JSON; {@code more} are further fields, each after a comma. */
    private static String note(String parentId, String name, String more) {
        return "{\"parentId\": \"" + parentId + "\", \"type\": \"Note\", \"name\": \"" + name + "\"" + more + "}";
    }

    /** Creates a document of the id given as an administrator, answered once MongoDB holds it; its id. */
    private static String createdByAdministrator(String id, String parentId, String type, String name, String more)
            throws Exception {
        String json = "{\"id\": \"" + id + "\", \"parentId\": \"" + parentId + "\", \"type\": \"" + type
                + "\", \"name\": \"" + name + "\"" + more + "}";
        HttpResponse<byte[]> created = write("POST", documents() + "?wait=true", json, Tokens.service());
        assertThat(created.statusCode()).as(text(created)).isEqualTo(201);
        return id;
    }

    /** How many children an administrator finds listed under a folder. */
    private static int childrenOf(String id) throws Exception {
        return JSON.readTree(get(documents() + "/" + id + "/children", Tokens.service()).body()).path("children").size();
    }

    /** The version of a document as an administrator reads it in MongoDB (its ETag). */
    private static String etag(String id) throws Exception {
        HttpResponse<byte[]> read = get(documents() + "/" + id, Tokens.service());
        assertThat(read.statusCode()).as(text(read)).isEqualTo(200);
        return read.headers().firstValue("ETag").orElseThrow();
    }

    /** A demo user's token, fetched again after a minute (a person's lasts five). */
    private static String token(String name) {
        synchronized (TOKENS) {
            Fetched fetched = TOKENS.get(name);
            if (fetched == null || fetched.at().plusSeconds(60).isBefore(Instant.now())) {
                fetched = new Fetched(Tokens.user(name), Instant.now());
                TOKENS.put(name, fetched);
            }
            return fetched.token();
        }
    }

    private static HttpRequest.Builder request(String base, String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120));
    }

    /** Sends with {@code token} (null: none), keeping the answer if it is an error. */
    private static HttpResponse<byte[]> send(HttpRequest.Builder request, String token) throws Exception {
        HttpRequest built = authorized(request, token);
        return kept(built, HTTP.send(built, HttpResponse.BodyHandlers.ofByteArray()));
    }

    private static CompletableFuture<HttpResponse<byte[]>> sendAsync(HttpRequest.Builder request, String token) {
        HttpRequest built = authorized(request, token);
        return HTTP.sendAsync(built, HttpResponse.BodyHandlers.ofByteArray()).thenApply(answer -> kept(built, answer));
    }

    private static HttpRequest authorized(HttpRequest.Builder request, String token) {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request.build();
    }

    private static HttpResponse<byte[]> kept(HttpRequest request, HttpResponse<byte[]> answer) {
        if (answer.statusCode() >= 400) {
            ERRORS.add(new Answer(request.method() + " " + request.uri().getPath(), answer.statusCode(),
                    answer.headers().firstValue("X-Request-Id").orElse(null), text(answer)));
        }
        return answer;
    }

    private static HttpResponse<byte[]> get(String path, String token, String... headers) throws Exception {
        HttpRequest.Builder request = request(local.base, path).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request, token);
    }

    private static HttpResponse<byte[]> write(String method, String path, String json, String token) throws Exception {
        return send(request(local.base, path).header("Content-Type", "application/json")
                .method(method, json == null ? BodyPublishers.noBody() : BodyPublishers.ofString(json)), token);
    }

    /** POSTs a generated body as U, with its length announced or chunked. */
    private static Delivery post(Flood flood, boolean announced) throws Exception {
        BodyPublisher body = BodyPublishers.ofInputStream(() -> flood);
        HttpRequest.Builder request = request(local.base, documents()).header("Content-Type", "application/json")
                .POST(announced ? BodyPublishers.fromPublisher(body, flood.total) : body);
        try {
            return new Delivery(send(request, token(user)), null);
        } catch (HttpTimeoutException noAnswer) {
            throw noAnswer;
        } catch (IOException closed) {
            return new Delivery(null, closed);
        }
    }

    private static void assertError(HttpResponse<byte[]> answer, int status, String error) {
        assertThat(answer.statusCode()).as(text(answer)).isEqualTo(status);
        assertThat(jsonOrMissing(answer.body()).path("error").asText(null)).as(text(answer)).isEqualTo(error);
    }

    private static JsonNode jsonOrMissing(byte[] body) {
        try {
            JsonNode json = JSON.readTree(body);
            return json == null ? MissingNode.getInstance() : json;
        } catch (IOException notJson) {
            return MissingNode.getInstance();
        }
    }

    /** The names of the fields of an answer's JSON object. */
    private static Set<String> fields(HttpResponse<byte[]> answer) {
        Set<String> names = new TreeSet<>();
        jsonOrMissing(answer.body()).fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String text(HttpResponse<byte[]> answer) {
        return new String(answer.body(), StandardCharsets.UTF_8);
    }

    /** An answer's headers and body, as text. */
    private static String everything(HttpResponse<byte[]> answer) {
        return answer.headers().map() + "\n" + text(answer);
    }

    private static String encoded(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /**
     * A generated request body of {@code total} bytes: {@code head}, {@code unit} over and over, then {@code tail};
     * it counts the bytes the client pulled from it to send.
     */
    private static final class Flood extends InputStream {

        private final byte[] head;
        private final byte[] unit;
        private final byte[] tail;
        final long total;
        private final AtomicLong pulled = new AtomicLong();

        Flood(String head, String unit, String tail, long total) {
            this.head = head.getBytes(StandardCharsets.UTF_8);
            this.unit = unit.getBytes(StandardCharsets.UTF_8);
            this.tail = tail.getBytes(StandardCharsets.UTF_8);
            this.total = total;
        }

        /** {@code [{},{},...,{}]} of about {@code bytes} bytes. */
        static Flood emptyObjects(long bytes) {
            long objects = bytes / 3;
            return new Flood("[", "{},", "{}]", 3 * objects + 1);
        }

        long pulled() {
            return pulled.get();
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            long position = pulled.get();
            if (position >= total) {
                return -1;
            }
            int count = (int) Math.min(length, total - position);
            for (int i = 0; i < count; i++) {
                buffer[offset + i] = at(position + i);
            }
            pulled.addAndGet(count);
            return count;
        }

        private byte at(long position) {
            if (position < head.length) {
                return head[(int) position];
            }
            long tailStart = total - tail.length;
            if (position >= tailStart) {
                return tail[(int) (position - tailStart)];
            }
            return unit[(int) ((position - head.length) % unit.length)];
        }
    }
}

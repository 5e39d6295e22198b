package io.volumizer.schemas.registry;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.avro.Schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A small client of the Confluent schema registry REST API (served locally by Apicurio's ccompat endpoint).
 *
 * <p>Confluent's own client is not obtainable from the package mirror. Only what the wire format needs is here:
 * register a schema under a subject and look a schema up by id. Both are cached, as ids never change meaning.
 * Serializable so that Flink operators can carry it; the HTTP client is created where it is used.
 */
public final class SchemaRegistryClient implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private final String baseUrl;
    private transient HttpClient http;
    private transient Map<Integer, Schema> schemasById;
    private transient Map<String, Integer> idsBySubjectAndSchema;

    /** @param baseUrl the API root, e.g. {@code http://127.0.0.1:8085/apis/ccompat/v7} */
    public SchemaRegistryClient(String baseUrl) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    public String baseUrl() {
        return baseUrl;
    }

    /**
     * Registers {@code schema} under {@code subject} (a no-op returning the existing id when already registered).
     *
     * @throws SchemaRegistryException with status 409 when the subject's compatibility rule rejects the schema
     */
    public int register(String subject, Schema schema) {
        String cacheKey = subject + '\u0000' + schema;
        Integer cached = idsBySubjectAndSchema().get(cacheKey);
        if (cached != null) {
            return cached;
        }
        ObjectNode body = JSON.createObjectNode().put("schema", schema.toString()).put("schemaType", "AVRO");
        JsonNode answer = send(HttpRequest.newBuilder(uri("/subjects/" + encode(subject) + "/versions"))
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())), "register a schema under " + subject);
        int id = answer.path("id").asInt(-1);
        if (id < 0) {
            throw new SchemaRegistryException(200, "registry answered without an id: " + answer);
        }
        idsBySubjectAndSchema().put(cacheKey, id);
        schemasById().putIfAbsent(id, schema);
        return id;
    }

    /**
     * @throws SchemaRegistryException with status 404 when no schema has this id
     * @throws NotAvroSchemaException when the schema under this id is not Avro (the registry's {@code schemaType},
     *         absent for Avro, names another) or does not parse as Avro
     */
    public Schema schemaById(int id) {
        Schema cached = schemasById().get(id);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = send(HttpRequest.newBuilder(uri("/schemas/ids/" + id)).GET(), "fetch schema id " + id);
        String type = answer.path("schemaType").asText("AVRO");
        if (!type.equals("AVRO")) {
            throw new NotAvroSchemaException("schema id " + id + " is a " + type + " schema, not Avro", null);
        }
        Schema schema;
        try {
            schema = new Schema.Parser().parse(answer.path("schema").asText());
        } catch (org.apache.avro.SchemaParseException e) {
            throw new NotAvroSchemaException("schema id " + id + " does not parse as Avro: " + e.getMessage(), e);
        }
        schemasById().put(id, schema);
        return schema;
    }

    /** The registered subjects; also how a client checks that the registry answers. */
    public java.util.List<String> subjects() {
        JsonNode answer = send(HttpRequest.newBuilder(uri("/subjects")).GET(), "list subjects");
        java.util.List<String> subjects = new java.util.ArrayList<>();
        answer.forEach(subject -> subjects.add(subject.asText()));
        return subjects;
    }

    /** Sets the compatibility rule of one subject (e.g. BACKWARD). */
    public void setCompatibility(String subject, String level) {
        ObjectNode body = JSON.createObjectNode().put("compatibility", level);
        send(HttpRequest.newBuilder(uri("/config/" + encode(subject)))
                .PUT(HttpRequest.BodyPublishers.ofString(body.toString())), "set compatibility of " + subject);
    }

    private JsonNode send(HttpRequest.Builder request, String what) {
        HttpResponse<String> response;
        try {
            response = http().send(request.header("Content-Type", CONTENT_TYPE).header("Accept", CONTENT_TYPE)
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new SchemaRegistryException(0, "schema registry at " + baseUrl + " unreachable: could not " + what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryException(0, "interrupted while trying to " + what, e);
        }
        if (response.statusCode() / 100 != 2) {
            throw new SchemaRegistryException(response.statusCode(),
                    "schema registry could not " + what + ": HTTP " + response.statusCode() + " " + response.body());
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("schema registry answered with malformed JSON to: " + what, e);
        }
    }

    private URI uri(String path) {
        return URI.create(baseUrl + path);
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8);
    }

    private HttpClient http() {
        if (http == null) {
            http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        }
        return http;
    }

    private Map<Integer, Schema> schemasById() {
        if (schemasById == null) {
            schemasById = new ConcurrentHashMap<>();
        }
        return schemasById;
    }

    private Map<String, Integer> idsBySubjectAndSchema() {
        if (idsBySubjectAndSchema == null) {
            idsBySubjectAndSchema = new ConcurrentHashMap<>();
        }
        return idsBySubjectAndSchema;
    }
}

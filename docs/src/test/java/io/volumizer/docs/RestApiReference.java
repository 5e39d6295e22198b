package io.volumizer.docs;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.api.ApiServer;

/**
 * {@code docs/reference/rest-api.md}: the repository API's routes, parameters, bodies, answers and schemas, from the
 * OpenAPI document the API serves ({@code api/src/main/resources/io/volumizer/api/openapi.json}, read from the
 * API's classpath as the server reads it).
 */
final class RestApiReference {

    static final String RESOURCE = "openapi.json";
    static final String SOURCE = "api/src/main/resources/io/volumizer/api/openapi.json";
    private static final String SHARED_ANSWER = "#/components/responses/";
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch", "head", "options");

    private RestApiReference() {
    }

    static String page() throws IOException {
        JsonNode api;
        try (InputStream in = ApiServer.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("no " + RESOURCE + " beside " + ApiServer.class.getName());
            }
            api = new ObjectMapper().readTree(in);
        }
        StringBuilder out = new StringBuilder(ReferenceDocs.header("REST API",
                "From the OpenAPI document the API serves at `/api/v1/openapi.json` (`" + SOURCE + "`), OpenAPI "
                        + api.path("openapi").asText() + ". How the API behaves (event-sourced writes, pages, errors, "
                        + "refusals under a burst, several repositories): [the repository API](../concepts/api.md); "
                        + "who may read and change what: [security](../concepts/security.md)."));
        out.append("## ").append(api.path("info").path("title").asText()).append("\n\n")
                .append(text(api.path("info").path("description"))).append("\n\n");
        api.path("servers").forEach(server -> out.append("Server: ").append(Markdown.code(server.path("url").asText()))
                .append(server.has("description") ? " (" + server.path("description").asText() + ")" : "").append(".\n\n"));
        JsonNode schemes = api.path("components").path("securitySchemes");
        schemes.fields().forEachRemaining(scheme -> out.append("Security scheme ").append(Markdown.code(scheme.getKey()))
                .append(": ").append(scheme.getValue().path("type").asText())
                .append(scheme.getValue().has("scheme") ? " " + scheme.getValue().path("scheme").asText() : "")
                .append(scheme.getValue().has("bearerFormat") ? " (" + scheme.getValue().path("bearerFormat").asText() + ")" : "")
                .append(scheme.getValue().has("description") ? ". " + text(scheme.getValue().path("description")) : "")
                .append("\n\n"));

        out.append("## Routes\n\n| method | path | what |\n|---|---|---|\n");
        List<String[]> operations = new ArrayList<>();
        api.path("paths").fields().forEachRemaining(path -> {
            for (String method : METHODS) {
                JsonNode operation = path.getValue().path(method);
                if (!operation.isMissingNode()) {
                    String heading = method.toUpperCase() + " " + path.getKey();
                    operations.add(new String[] {method, path.getKey()});
                    out.append("| ").append(method.toUpperCase()).append(" | [").append(Markdown.codeCell(path.getKey()))
                            .append("](#").append(Markdown.anchor(Markdown.code(heading))).append(") | ")
                            .append(Markdown.cell(operation.path("summary").asText())).append(" |\n");
                }
            }
        });
        out.append('\n');

        for (String[] entry : operations) {
            JsonNode path = api.path("paths").path(entry[1]);
            JsonNode operation = path.path(entry[0]);
            out.append("### ").append(Markdown.code(entry[0].toUpperCase() + " " + entry[1])).append("\n\n");
            out.append(text(operation.path("summary"))).append(operation.has("summary") ? ".\n\n" : "");
            if (operation.has("description")) {
                out.append(text(operation.path("description"))).append("\n\n");
            }
            if (operation.has("security") && operation.path("security").isEmpty()) {
                out.append("No token needed.\n\n");
            }
            List<JsonNode> parameters = new ArrayList<>();
            path.path("parameters").forEach(parameter -> parameters.add(resolve(api, parameter)));
            operation.path("parameters").forEach(parameter -> parameters.add(resolve(api, parameter)));
            if (!parameters.isEmpty()) {
                out.append("| parameter | in | type | description |\n|---|---|---|---|\n");
                for (JsonNode parameter : parameters) {
                    out.append("| ").append(Markdown.codeCell(parameter.path("name").asText()))
                            .append(parameter.path("required").asBoolean() ? " (required)" : "").append(" | ")
                            .append(parameter.path("in").asText()).append(" | ").append(type(api, parameter.path("schema")))
                            .append(" | ").append(Markdown.cell(parameter.path("description").asText())).append(" |\n");
                }
                out.append('\n');
            }
            JsonNode body = resolve(api, operation.path("requestBody"));
            if (!body.isMissingNode()) {
                out.append("Request body").append(body.path("required").asBoolean() ? " (required)" : "").append(": ");
                List<String> contents = new ArrayList<>();
                body.path("content").fields().forEachRemaining(content ->
                        contents.add(Markdown.code(content.getKey()) + " " + type(api, content.getValue().path("schema"))));
                out.append(String.join("; ", contents));
                if (body.has("description")) {
                    out.append(". ").append(text(body.path("description")));
                }
                out.append("\n\n");
            }
            out.append("| answer | description |\n|---|---|\n");
            operation.path("responses").fields().forEachRemaining(response -> {
                String ref = response.getValue().path("$ref").asText("");
                if (ref.startsWith(SHARED_ANSWER)) {
                    out.append("| ").append(response.getKey()).append(" | ").append(Markdown.code(ref.substring(SHARED_ANSWER.length())))
                            .append(", see [shared answers](#shared-answers) |\n");
                } else {
                    out.append("| ").append(response.getKey()).append(" | ").append(answer(api, resolve(api, response.getValue()))).append(" |\n");
                }
            });
            out.append('\n');
        }

        JsonNode shared = api.path("components").path("responses");
        if (shared.size() > 0) {
            out.append("## Shared answers\n\nAnswers several routes give, by name.\n\n| answer | description |\n|---|---|\n");
            shared.fields().forEachRemaining(answer -> out.append("| ").append(Markdown.code(answer.getKey())).append(" | ")
                    .append(answer(api, resolve(api, answer.getValue()))).append(" |\n"));
            out.append('\n');
        }

        out.append("## Schemas\n\n");
        api.path("components").path("schemas").fields().forEachRemaining(schema -> {
            out.append("### ").append(schema.getKey()).append("\n\n");
            JsonNode value = schema.getValue();
            if (value.has("description")) {
                out.append(text(value.path("description"))).append("\n\n");
            }
            String kind = type(api, value);
            if (!value.has("properties")) {
                out.append("Type: ").append(kind).append(".\n\n");
                return;
            }
            List<String> required = new ArrayList<>();
            value.path("required").forEach(name -> required.add(name.asText()));
            out.append("| field | type | description |\n|---|---|---|\n");
            value.path("properties").fields().forEachRemaining(property -> out.append("| ")
                    .append(Markdown.codeCell(property.getKey())).append(required.contains(property.getKey()) ? " (required)" : "")
                    .append(" | ").append(type(api, property.getValue())).append(" | ")
                    .append(Markdown.cell(property.getValue().path("description").asText())).append(" |\n"));
            out.append('\n');
        });
        return out.toString().strip() + "\n";
    }

    /** An answer's description and what its body holds, for a table cell. */
    private static String answer(JsonNode api, JsonNode answer) {
        List<String> contents = new ArrayList<>();
        answer.path("content").fields().forEachRemaining(content -> {
            String schema = type(api, content.getValue().path("schema"));
            contents.add(Markdown.codeCell(content.getKey()) + (schema.isEmpty() ? "" : " " + schema));
        });
        return Markdown.cell(answer.path("description").asText()) + (contents.isEmpty() ? "" : " (" + String.join("; ", contents) + ")");
    }

    /** A {@code $ref} followed within the document; anything else as it is. */
    private static JsonNode resolve(JsonNode api, JsonNode node) {
        JsonNode resolved = node;
        while (resolved.has("$ref")) {
            String ref = resolved.path("$ref").asText();
            if (!ref.startsWith("#/")) {
                throw new IllegalStateException("a reference outside the document: " + ref);
            }
            JsonNode target = api;
            for (String part : ref.substring(2).split("/")) {
                target = target.path(part.replace("~1", "/").replace("~0", "~"));
            }
            if (target.isMissingNode()) {
                throw new IllegalStateException("a reference to nothing: " + ref);
            }
            resolved = target;
        }
        return resolved;
    }

    /** A schema in a few words, for a table cell: a named schema links to its section. */
    private static String type(JsonNode api, JsonNode schema) {
        if (schema.isMissingNode() || schema.isEmpty()) {
            return "";
        }
        if (schema.has("$ref")) {
            String ref = schema.path("$ref").asText();
            String name = ref.substring(ref.lastIndexOf('/') + 1);
            return ref.startsWith("#/components/schemas/") ? "[" + name + "](#" + Markdown.anchor(name) + ")" : name;
        }
        for (String combination : List.of("oneOf", "anyOf", "allOf")) {
            if (schema.has(combination)) {
                List<String> parts = new ArrayList<>();
                schema.path(combination).forEach(part -> parts.add(type(api, part)));
                return String.join(combination.equals("allOf") ? " and " : " or ", parts);
            }
        }
        StringBuilder type = new StringBuilder();
        String name = schema.path("type").isArray() ? join(schema.path("type")) : schema.path("type").asText("");
        if (name.equals("array")) {
            type.append("array of ").append(type(api, schema.path("items")));
        } else if (name.equals("object") && schema.has("additionalProperties") && schema.path("additionalProperties").isObject()) {
            type.append("object of ").append(type(api, schema.path("additionalProperties")));
        } else {
            type.append(name);
        }
        if (schema.has("format")) {
            type.append(" (").append(schema.path("format").asText()).append(')');
        }
        if (schema.has("enum")) {
            List<String> values = new ArrayList<>();
            schema.path("enum").forEach(value -> values.add(Markdown.codeCell(value.asText())));
            type.append(": ").append(String.join(", ", values));
        }
        List<String> bounds = new ArrayList<>();
        for (Map.Entry<String, String> bound : Map.of("minimum", "≥ ", "maximum", "≤ ", "maxLength", "length ≤ ",
                "minLength", "length ≥ ", "maxItems", "items ≤ ", "pattern", "pattern ").entrySet()) {
            if (schema.has(bound.getKey())) {
                bounds.add(bound.getValue() + (bound.getKey().equals("pattern") ? Markdown.codeCell(schema.path("pattern").asText())
                        : schema.path(bound.getKey()).asText()));
            }
        }
        bounds.sort(null);
        if (!bounds.isEmpty()) {
            type.append(", ").append(String.join(", ", bounds));
        }
        if (schema.has("default")) {
            type.append(", default ").append(Markdown.codeCell(schema.path("default").asText()));
        }
        return type.toString().strip();
    }

    private static String join(JsonNode array) {
        List<String> parts = new ArrayList<>();
        Iterator<JsonNode> items = array.elements();
        items.forEachRemaining(item -> parts.add(item.asText()));
        return String.join(" or ", parts);
    }

    /** A description as Markdown prose: as written, one paragraph. */
    private static String text(JsonNode node) {
        return Markdown.prose(node.asText("").replaceAll("\\s*\\n\\s*", " ").strip());
    }
}

package io.volumizer.api.commands;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.bson.Document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.volumizer.api.commands.CommandRefusedException.Reason;
import io.volumizer.domain.selection.Selection;
import io.volumizer.options.steps.BulkUpdateOptions;
import io.volumizer.options.steps.SetAclOptions;
import io.volumizer.options.steps.Step;
import io.volumizer.schemas.event.Acl;
import io.volumizer.stores.AclJson;
import io.volumizer.stores.InvalidFieldException;
import io.volumizer.stores.PropertyValues;
import io.volumizer.stores.commands.CommandStore;

/**
 * Commands as asked (by the API's bodies, the CLI's options), checked field by field and turned into their jobs'
 * arguments and what their records keep of the request; what needs the stores to be checked is {@link Commands}'.
 */
public final class CommandRequests {

    /** The request's field (the CLI's {@code --all}) that says a bulk command without filters means every document. */
    public static final String ALL = "all";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    /** The bulk actions: those of the bulk update job, and setAcl. */
    static final List<String> ACTIONS = Stream.concat(Arrays.stream(BulkUpdateOptions.Action.values()).map(Enum::name),
            Stream.of(SetAclOptions.ACTION)).toList();

    private CommandRequests() {
    }

    /** A new command's id: its kind, its repository, when, and a random part. */
    static String newId(Step step, String repository) {
        return step.commandKind().orElseThrow() + "-" + repository + "-" + ID_TIME.format(Instant.now()) + "-"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A reindex's arguments: {@code options} are more options of its job ({@code --delete-old}...). */
    static List<String> reindex(String repository, String commandId, List<String> options) {
        List<String> arguments = new ArrayList<>(List.of("--repository", repository, "--command-id", commandId));
        arguments.addAll(options);
        return arguments;
    }

    /**
     * A bulk command, checked: its action on the documents its selection finds, with the values it sets. Public for
     * what checks a command before it is asked for (a campaign file's bulk steps), with the same rules.
     */
    public record Bulk(BulkUpdateOptions.Action action, Selection selection, Map<String, Object> values) {

        /**
         * @throws CommandRefusedException 400 naming an unknown action or filter, a bad value, a property that cannot
         *                                 be stored, or a missing selection
         */
        public static Bulk of(String repository, String action, Map<String, String> filters, boolean all, JsonNode properties) {
            BulkUpdateOptions.Action parsedAction;
            try {
                parsedAction = BulkUpdateOptions.Action.valueOf(String.valueOf(action));
            } catch (IllegalArgumentException e) {
                throw new CommandRefusedException(Reason.INVALID, "action", "action must be one of " + ACTIONS
                        + ", was '" + action + "'");
            }
            Selection selection;
            try {
                selection = Selection.parse(filters);
            } catch (InvalidFieldException e) {
                throw new CommandRefusedException(Reason.INVALID, "query." + e.field(), e.getMessage());
            }
            if (selection.filters().isEmpty() && !all) {
                throw new CommandRefusedException(Reason.INVALID, ALL, "no selection: a bulk command without a "
                        + "filter (query: " + String.join(", ", Selection.FILTERS) + ") takes every document of "
                        + repository + ", and does so only when asked: \"all\": true (bin/volumizer bulk: --all)");
            }
            if (!selection.filters().isEmpty() && all) {
                throw new CommandRefusedException(Reason.INVALID, ALL, "all takes every document: it goes "
                        + "without filters, was given " + selection.filters().keySet());
            }
            Map<String, Object> values;
            try {
                values = properties == null || properties.isNull() ? Map.of() : PropertyValues.read(properties);
            } catch (InvalidFieldException e) {
                throw new CommandRefusedException(Reason.INVALID, "params." + e.field(), e.getMessage());
            }
            if (parsedAction == BulkUpdateOptions.Action.setProperties && values.isEmpty()) {
                throw new CommandRefusedException(Reason.INVALID, "params.properties", "setProperties needs "
                        + "params.properties: an object of the property names and values to set");
            }
            if (parsedAction != BulkUpdateOptions.Action.setProperties && !values.isEmpty()) {
                throw new CommandRefusedException(Reason.INVALID, "params.properties", parsedAction + " takes no properties");
            }
            return new Bulk(parsedAction, selection, values);
        }

        List<String> arguments(String repository, String commandId) {
            List<String> arguments = new ArrayList<>(List.of("--repository", repository, "--command-id", commandId,
                    "--action", action.name(), "--properties", JSON.valueToTree(values).toString()));
            selection.filters().forEach((name, value) -> arguments.addAll(List.of("--filter", name + "=" + value)));
            return arguments;
        }

        /** What the record keeps of the request. */
        Document recorded() {
            return new Document(CommandStore.QUERY, new Document(selection.filters()))
                    .append(CommandStore.PARAMS, new Document("properties", new Document(values)));
        }
    }

    /** A setAcl command, checked: the folder, and its new ACL as JSON. */
    record SetAcl(String documentId, String acl) {

        /** @throws CommandRefusedException 400 for a missing folder id or a bad ACL */
        static SetAcl of(String documentId, JsonNode acl) {
            if (documentId == null || documentId.isBlank()) {
                throw new CommandRefusedException(Reason.INVALID, "params.document", "setAcl needs params.document: the "
                        + "folder whose ACL changes");
            }
            Acl parsed;
            try {
                parsed = AclJson.read(acl, "params.acl");
            } catch (InvalidFieldException e) {
                throw new CommandRefusedException(Reason.INVALID, e.field(), e.getMessage());
            }
            return new SetAcl(documentId, AclJson.write(parsed).toString());
        }

        List<String> arguments(String repository, String commandId) {
            return new ArrayList<>(List.of("--repository", repository, "--command-id", commandId, "--document", documentId,
                    "--acl", acl));
        }

        /** What the record keeps of the request. */
        Document recorded() {
            return new Document(CommandStore.PARAMS, new Document("document", documentId).append("acl", Document.parse(acl)));
        }
    }
}

package io.volumizer.api.commands.http;

import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.javalin.http.Context;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.RequestJson;
import io.volumizer.api.internal.BackendUnavailableException;
import io.volumizer.api.reads.Caller;
import io.volumizer.ops.throttle.ThrottleSettings;
import io.volumizer.schemas.codec.WireFormatException;
import io.volumizer.schemas.registry.SchemaRegistryException;
import io.volumizer.schemas.event.ThrottleSetting;

/**
 * {@code GET|PUT /api/v1/admin/throttle}: the throttles of the API's repository's steps and commands, as {@code
 * bin/volumizer throttle} reads and changes them; the change is the caller's, and its jobs obey it within 2 s. Kafka
 * or the registry out of reach is a 503.
 */
public final class ThrottleHandler {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> FIELDS = Set.of("target", "setting");

    private final ThrottleSettings settings;
    private final RequestJson json;

    public ThrottleHandler(RequestJson json, ThrottleSettings settings) {
        this.json = json;
        this.settings = settings;
    }

    public void list(Context ctx) {
        ObjectNode answer = JSON.createObjectNode();
        var throttles = answer.putArray("throttles");
        call(settings::read).values().forEach(setting -> throttles.add(json(setting)));
        ctx.json(answer);
    }

    public void change(Context ctx) {
        JsonNode body = CommandsHandler.body(json, ctx, FIELDS);
        String target = body.path("target").asText("");
        if (!ThrottleSettings.isTarget(target)) {
            throw ApiException.badRequest("target", "no job obeys a throttle of '" + target + "'; targets: "
                    + ThrottleSettings.targets());
        }
        ThrottleSettings.Change change;
        try {
            change = ThrottleSettings.Change.parse(body.path("setting").asText(""));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("setting", e.getMessage());
        }
        ctx.json(json(call(() -> settings.change(target, change, Caller.of(ctx).name()))));
    }

    private static ObjectNode json(ThrottleSetting setting) {
        ObjectNode json = JSON.createObjectNode().put("target", setting.getTarget())
                .put("docsPerSecond", setting.getDocsPerSecond()).put("paused", setting.getPaused())
                .put("changed", setting.getChanged().toString());
        return setting.getChangedBy() == null ? json : json.put("changedBy", setting.getChangedBy());
    }

    private interface KafkaCall<T> {
        T call() throws InterruptedException, ExecutionException, TimeoutException;
    }

    /** The call's answer; Kafka out of reach is a 503. */
    private static <T> T call(KafkaCall<T> call) {
        try {
            return call.call();
        } catch (ExecutionException | TimeoutException | org.apache.kafka.common.KafkaException | WireFormatException
                | SchemaRegistryException e) {
            throw new BackendUnavailableException("kafka", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendUnavailableException("kafka", e);
        }
    }
}

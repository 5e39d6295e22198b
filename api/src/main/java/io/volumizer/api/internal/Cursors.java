package io.volumizer.api.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;

import io.volumizer.stores.search.SearchResult;

/**
 * Keyset cursors, sealed: the sort values of the last item returned, encrypted and authenticated (AES-GCM) for the
 * caller and the sort they were made for, base64url encoded. A client can neither read them (a hit's score counts
 * documents it may not read) nor forge or lend them: any other cursor is a 400. A page continues after those values
 * (search_after, or a keyset filter), never by offset. Every replica of the API must share the key
 * ({@code $VOLUMIZER_CURSOR_KEY}); without one each process makes its own, and its cursors die with it.
 */
public final class Cursors {

    private static final Logger LOG = LoggerFactory.getLogger(Cursors.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKey key;

    private Cursors(byte[] key) {
        this.key = new SecretKeySpec(key, "AES");
    }

    /** Cursors sealed with a key derived from {@code secret}, or with a random one when it is null or empty. */
    public static Cursors sealedWith(String secret) {
        if (secret == null || secret.isEmpty()) {
            LOG.warn("no $VOLUMIZER_CURSOR_KEY: cursors are sealed with this process's own key, and refused by "
                    + "another replica or after a restart");
            byte[] key = new byte[32];
            RANDOM.nextBytes(key);
            return new Cursors(key);
        }
        try {
            return new Cursors(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** The cursor to continue after {@code after} in {@code sort}, for {@code caller} alone. */
    public String seal(String caller, String sort, ArrayNode after) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            RANDOM.nextBytes(nonce);
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce, caller, sort);
            byte[] sealed = cipher.doFinal(after.toString().getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is missing from this JVM", e);
        }
    }

    /** The cursor after a full page of search hits (their last sort values), or null after a short one. */
    public String next(String caller, String sort, List<SearchResult.Hit> hits, int limit) {
        return hits.size() == limit ? seal(caller, sort, hits.get(hits.size() - 1).sort()) : null;
    }

    /** {@code after} sealed, or null when there is none. */
    public String sealOrNull(String caller, String sort, ArrayNode after) {
        return after == null ? null : seal(caller, sort, after);
    }

    /**
     * The sort values to continue after, or null without a cursor; a cursor that is not this API's, for this caller
     * and this sort, with {@code values} scalar values, is a 400.
     */
    public ArrayNode open(String cursor, String caller, String sort, int values) {
        if (cursor == null) {
            return null;
        }
        JsonNode node;
        try {
            byte[] bytes = Base64.getUrlDecoder().decode(cursor);
            if (bytes.length <= NONCE_BYTES) {
                throw invalid();
            }
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, java.util.Arrays.copyOf(bytes, NONCE_BYTES), caller, sort);
            node = JSON.readTree(cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES));
        } catch (IllegalArgumentException | IOException | GeneralSecurityException e) {
            throw invalid();
        }
        if (node == null || !node.isArray() || node.size() != values) {
            throw invalid();
        }
        for (JsonNode value : node) {
            if (!value.isValueNode() || value.isNull()) {
                throw invalid();
            }
        }
        return (ArrayNode) node;
    }

    private Cipher cipher(int mode, byte[] nonce, String caller, String sort) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD((caller + "\n" + sort).getBytes(StandardCharsets.UTF_8));
        return cipher;
    }

    private static ApiException invalid() {
        return new ApiException(400, "invalid_cursor", "cursor", "cursor is not one this API gave you for this sort: "
                + "a cursor is for the caller and the sort it was returned to; start again without one");
    }
}

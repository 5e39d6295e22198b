package io.volumizer.api.documents;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;

import org.apache.commons.fileupload2.core.FileItemInput;
import org.apache.commons.fileupload2.core.FileItemInputIterator;
import org.apache.commons.fileupload2.core.FileUploadException;
import org.apache.commons.fileupload2.jakarta.servlet5.JakartaServletFileUpload;

import io.javalin.http.Context;
import io.volumizer.api.internal.ApiException;
import io.volumizer.api.internal.RequestBodies;
import io.volumizer.api.internal.RequestJson;

/**
 * A document sent as a multipart form: its JSON in part {@code document}, its file in part {@code file}, each at most
 * once. The form is read once, as a stream (Commons FileUpload's iterator), each part under its own cap: any other
 * part, or one given twice, is refused before it is read, so a form of a thousand parts costs its first three (Jetty's
 * form parsing costs a request time quadratic in its parts, and answers a form past its size with a 500).
 *
 * @param json     the document's JSON, or null when the form has none
 * @param file     the file's bytes, or null when the form has none
 * @param filename the file's name as the client gave it, or null
 */
public record MultipartDocument(byte[] json, byte[] file, String filename) {

    public static final String DOCUMENT_PART = "document";
    public static final String FILE_PART = "file";

    /** Reads the request's form: {@code json}'s limit for the document, {@code maxFileBytes} for the file. */
    public static MultipartDocument read(Context ctx, RequestJson json, long maxFileBytes) {
        byte[] document = null;
        byte[] file = null;
        String filename = null;
        try {
            FileItemInputIterator items = new JakartaServletFileUpload<>().getItemIterator(ctx.req());
            while (items.hasNext()) {
                FileItemInput item = items.next();
                String name = item.getFieldName();
                if (DOCUMENT_PART.equals(name) && document == null) {
                    document = read(item, json.maxBytes(), DOCUMENT_PART);
                } else if (FILE_PART.equals(name) && file == null) {
                    file = read(item, maxFileBytes, FILE_PART);
                    filename = item.getName();
                } else {
                    throw ApiException.badRequest(String.valueOf(name), Set.of(DOCUMENT_PART, FILE_PART).contains(name)
                            ? "part '" + name + "' is given twice"
                            : "unknown part '" + name + "'; parts: " + DOCUMENT_PART + ", " + FILE_PART);
                }
            }
        } catch (IOException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof RequestBodies.RefusedBodyException refused) {
                    throw refused.refusal();
                }
            }
            throw ApiException.badRequest("body", e instanceof FileUploadException
                    ? "the multipart form cannot be read: check its boundary and parts"
                    : "the request body could not be read to its end: send it again");
        }
        return new MultipartDocument(document, file, filename);
    }

    private static byte[] read(FileItemInput item, long limit, String part) throws IOException {
        try (InputStream in = RequestBodies.capped(item.getInputStream(), limit)) {
            return in.readAllBytes();
        } catch (RequestBodies.RefusedBodyException e) {
            if (e.refusal().status() != 413) {
                throw e;
            }
            throw new ApiException(413, "payload_too_large", part, "part '" + part + "' is larger than " + limit
                    + " bytes");
        }
    }
}

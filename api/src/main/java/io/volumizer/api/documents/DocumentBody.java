package io.volumizer.api.documents;

import io.volumizer.schemas.event.BlobRef;

/** What a write request sends: the document's fields, and a file when it is a multipart form (described, not yet stored). */
public record DocumentBody(DocumentInput input, byte[] file, BlobRef blob) {
}

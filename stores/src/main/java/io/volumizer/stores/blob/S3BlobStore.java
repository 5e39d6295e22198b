package io.volumizer.stores.blob;

import java.util.Optional;

import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Blobs in an S3 bucket (AWS, or any S3-compatible server), under an optional key prefix. A PUT is atomic and the
 * key is the content's digest, so a blob is written without looking first: writing it again stores the same bytes.
 * Transient failures are retried by the SDK; what still fails is a {@link BlobStoreException} naming the object.
 */
public final class S3BlobStore implements BlobStore {

    private final S3Client client;
    private final String bucket;
    private final String prefix;

    /** {@code prefix} is empty or ends with "/". */
    public S3BlobStore(S3Client client, String bucket, String prefix) {
        this.client = client;
        this.bucket = bucket;
        this.prefix = prefix;
    }

    @Override
    public String put(byte[] bytes) {
        String digest = BlobStore.sha256(bytes);
        String key = key(digest);
        try {
            client.putObject(b -> b.bucket(bucket).key(key).contentLength((long) bytes.length),
                    RequestBody.fromBytes(bytes));
            return digest;
        } catch (SdkException e) {
            throw new BlobStoreException("cannot store blob in " + url(key) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<byte[]> get(String digest) {
        String key = key(digest);
        try {
            return Optional.of(client.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw new BlobStoreException("cannot read blob " + url(key) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String location() {
        return url(prefix);
    }

    @Override
    public void close() {
        client.close();
    }

    private String url(String key) {
        return "s3://" + bucket + "/" + key;
    }

    private String key(String digest) {
        return prefix + BlobStore.relativePath(digest);
    }
}

package io.volumizer.jobs.csv.source;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.volumizer.stores.blob.BlobStoreOptions;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Where CSV files are read from: a local file or folder (shared by every TaskManager), or an S3 object or prefix,
 * read by byte ranges so that a split's reader fetches its range alone. A folder or prefix stands for its
 * {@code *.csv} files, sorted by name.
 */
public abstract class CsvInputs implements Serializable, java.io.Closeable {

    private static final long serialVersionUID = 1L;
    private static final String S3 = "s3://";
    private static final int BUFFER = 1 << 20;

    /** A file and its length. */
    public record Input(String file, long length) {
    }

    /** The inputs of {@code path}; {@code s3} says which endpoint and region an {@code s3://} path is on. */
    public static CsvInputs of(String path, BlobStoreOptions s3) {
        return path.startsWith(S3) ? new S3Inputs(path, s3) : new LocalInputs(path);
    }

    /** The files, sorted by name. */
    public abstract List<Input> list() throws IOException;

    /** The bytes of {@code file} from {@code offset} to {@code end} (exclusive) at least; the caller closes them. */
    public abstract InputStream open(String file, long offset, long end) throws IOException;

    /** Releases what reading needed (an S3 client). */
    @Override
    public void close() {
    }

    private static boolean isCsv(String name) {
        return name.toLowerCase(java.util.Locale.ROOT).endsWith(".csv");
    }

    private static final class LocalInputs extends CsvInputs {
        private static final long serialVersionUID = 1L;
        private final String path;

        LocalInputs(String path) {
            this.path = path;
        }

        @Override
        public List<Input> list() throws IOException {
            Path root = Path.of(path);
            if (!Files.isDirectory(root)) {
                return List.of(new Input(root.toString(), Files.size(root)));
            }
            try (Stream<Path> files = Files.list(root)) {
                return files.filter(file -> Files.isRegularFile(file) && isCsv(file.getFileName().toString())).sorted()
                        .map(file -> {
                            try {
                                return new Input(file.toString(), Files.size(file));
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        }).toList();
            }
        }

        @Override
        public InputStream open(String file, long offset, long end) throws IOException {
            FileChannel channel = FileChannel.open(Path.of(file), StandardOpenOption.READ);
            channel.position(offset);
            return new BufferedInputStream(Channels.newInputStream(channel), BUFFER);
        }
    }

    private static final class S3Inputs extends CsvInputs {
        private static final long serialVersionUID = 1L;
        private final String bucket;
        private final String key;
        private final BlobStoreOptions options;
        private transient S3Client client;

        S3Inputs(String path, BlobStoreOptions options) {
            String rest = path.substring(S3.length());
            int slash = rest.indexOf('/');
            this.bucket = slash < 0 ? rest : rest.substring(0, slash);
            this.key = slash < 0 ? "" : rest.substring(slash + 1);
            this.options = options;
        }

        private synchronized S3Client client() {
            if (client == null) {
                client = options.s3Client();
            }
            return client;
        }

        @Override
        public List<Input> list() {
            // The object itself when the path names one, else the prefix's CSV objects.
            boolean oneFile = isCsv(key);
            return client().listObjectsV2Paginator(ListObjectsV2Request.builder().bucket(bucket).prefix(key).build())
                    .contents().stream()
                    .filter(object -> oneFile ? object.key().equals(key) : isCsv(object.key()))
                    .sorted(Comparator.comparing(S3Object::key))
                    .map(object -> new Input(S3 + bucket + "/" + object.key(), object.size())).toList();
        }

        @Override
        public InputStream open(String file, long offset, long end) {
            String objectKey = file.substring((S3 + bucket + "/").length());
            ResponseInputStream<GetObjectResponse> object = client().getObject(GetObjectRequest.builder().bucket(bucket)
                    .key(objectKey).range("bytes=" + offset + "-" + (end - 1)).build());
            return new BufferedInputStream(object, BUFFER);
        }

        @Override
        public synchronized void close() {
            if (client != null) {
                client.close();
                client = null;
            }
        }
    }
}

package io.volumizer.ops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against the local Flink session cluster's REST API. */
class FlinkSessionClientIT {

    private static final String REST = System.getProperty("volumizer.flink.rest");
    private final FlinkSessionClient flink = new FlinkSessionClient(REST);

    @Test
    void theSameJarIsUploadedOnceAndAChangedOneAgain(@TempDir Path folder) throws Exception {
        Path jar = jar(folder.resolve("volumizer-it.jar"), "first");
        String uploaded = flink.uploadJar(jar);
        try {
            assertThat(flink.uploadJar(jar)).isEqualTo(uploaded);
            assertThat(uploaded).endsWith(FlinkSessionClient.uploadName("volumizer-it.jar", Files.readAllBytes(jar)));

            String changed = flink.uploadJar(jar(jar, "second"));
            assertThat(changed).isNotEqualTo(uploaded);
            deleteUpload(changed);
        } finally {
            deleteUpload(uploaded);
        }
    }

    private static Path jar(Path path, String entry) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(path), new Manifest())) {
            out.putNextEntry(new JarEntry(entry + ".txt"));
        }
        return path;
    }

    private static void deleteUpload(String jarId) throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                REST + "/jars/" + jarId)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }
}

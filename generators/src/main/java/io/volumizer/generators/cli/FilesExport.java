package io.volumizer.generators.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import io.volumizer.generators.BankGenerator;
import io.volumizer.schemas.event.DocumentEvent;

/**
 * The repository as a folder tree: folderish documents are folders named after the documents, documents with a
 * blob are their rendered files.
 */
final class FilesExport {

    private final Path out;

    FilesExport(Path out) {
        this.out = out;
    }

    long write(BankGenerator generator, Progress progress) throws IOException {
        // Parents always come before their children in index order; customer-level folders are dropped once the
        // next customer starts, so memory stays flat however many customers there are.
        Map<String, Path> folders = new HashMap<>();
        Map<String, Path> customerFolders = new HashMap<>();
        long written = 0;
        for (long index = 0; index < generator.indexSpace(); index++) {
            DocumentEvent document = generator.documentAt(index);
            if (document != null) {
                Path parent = document.getParentId() == null ? out
                        : customerFolders.getOrDefault(document.getParentId(), folders.get(document.getParentId()));
                Path path = parent.resolve(safe(document.getName()));
                if (document.getBlob() == null) {
                    Files.createDirectories(path);
                    if (document.getType().equals("CustomerFolder")) {
                        customerFolders.clear();
                    }
                    (document.getType().equals("Root") || document.getType().equals("State") ? folders : customerFolders)
                            .put(document.getId(), path);
                } else {
                    Files.write(path, generator.blob(document.getBlob().getKey()));
                }
                written++;
            }
            progress.at(index, written);
        }
        return written;
    }

    private static String safe(String name) {
        return name.replace('/', '_').replace('\\', '_');
    }
}

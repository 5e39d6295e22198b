package io.volumizer.stores;

import io.volumizer.schemas.event.Permission;

/**
 * The names of a document's fields in both stores: what MongoDB stores ({@code StoredForm}), what Elasticsearch
 * indexes ({@code SearchWriter}, its index template), and what the API reads, filters, sorts and
 * writes. One name per concept, so that a user querying the two stores side by side sees the same fields.
 *
 * <p>The document id is each store's own primary key, {@code _id}. The index also keeps it as {@link #ID}, a
 * keyword with doc values, because sorts and {@code search_after} pages end on it (Elasticsearch's {@code _id}
 * has no doc values).
 */
public final class DocumentFields {

    /** The primary key in both stores. */
    public static final String KEY = "_id";
    /** The id as an indexed keyword (Elasticsearch only), and as clients see it in the API's JSON. */
    public static final String ID = "id";
    public static final String REPOSITORY = "repository";
    public static final String PARENT_ID = "parentId";
    /** From the root down to the parent. */
    public static final String ANCESTOR_IDS = "ancestorIds";
    /** Names from the root, joined by /. */
    public static final String PATH = "path";
    public static final String TYPE = "type";
    public static final String NAME = "name";
    public static final String TITLE = "title";
    public static final String CREATED = "created";
    public static final String MODIFIED = "modified";
    public static final String VERSION = "version";
    /** The document's typed properties, an object of name to value. */
    public static final String PROPERTIES = "properties";
    /** MongoDB only: when the import wrote this version. */
    public static final String IMPORTED_AT = "importedAt";
    /** MongoDB only: a delete's tombstone, which keeps the version. */
    public static final String DELETED = "deleted";
    /** Elasticsearch only: the title and every text property, for fulltext search. */
    public static final String FULLTEXT = "fulltext";
    /**
     * In repositories of the live profile, the text inside the document's file, once read: Elasticsearch indexes it;
     * MongoDB keeps it apart from the document, in the repository's collection of files' texts
     * ({@link io.volumizer.stores.mongodb.MongoRepositories#fileTexts}), a record of {@link FileText}'s fields by
     * document id, for a reindex to carry.
     */
    public static final String FILE_TEXT = "fileText";
    /**
     * Elasticsearch only, in repositories of the live profile, of a document with a file: whether its file's text is
     * indexed yet (it follows the metadata; a file without text, or that could not be read, stays false).
     */
    public static final String FILE_TEXT_INDEXED = "fileTextIndexed";
    public static final String BLOB = "blob";
    /**
     * Where a document came from: MongoDB stores all of it (a generated document's seed and index), Elasticsearch
     * only {@link Origin#COMMAND}, the bulk command whose change the version is, which both stores count.
     */
    public static final String ORIGIN = "origin";
    /** MongoDB only: the document's own ACL, an object of {@link Acl}'s fields. */
    public static final String ACL = "acl";
    /**
     * The principals that may read the document (its effective ACL, computed at import from its ancestors' ACLs):
     * MongoDB stores it, Elasticsearch indexes it as a keyword, for searches to filter by.
     */
    public static final String READ_ACL = "readAcl";
    /** MongoDB only: the principals that may write the document. */
    public static final String WRITE_ACL = "writeAcl";
    /** MongoDB only: the principals that may change the document's ACL. */
    public static final String MANAGE_ACL = "manageAcl";

    /** Fields of {@link #BLOB}. */
    public static final class Blob {
        public static final String KEY = "key";
        public static final String MIME_TYPE = "mimeType";
        public static final String FILENAME = "filename";
        /** MongoDB only. */
        public static final String DIGEST = "digest";
        /** MongoDB only. */
        public static final String LENGTH = "length";

        private Blob() {
        }
    }

    /** Fields of a document's record in its repository's collection of files' texts in MongoDB, beside {@link #KEY}. */
    public static final class FileText {
        /** The document's version whose file the text was read from: the text of another version is not its own. */
        public static final String VERSION = "version";
        public static final String TEXT = "text";

        private FileText() {
        }
    }

    /** Fields of {@link #ORIGIN}. */
    public static final class Origin {
        public static final String SOURCE = "source";
        public static final String SEED = "seed";
        public static final String INDEX = "index";
        public static final String COMMAND = "command";
        /** A CSV row's file (its line is {@link #INDEX}). */
        public static final String FILE = "file";

        private Origin() {
        }
    }

    /** Fields of {@link #ACL}: {@code {aces: [{principal, permission, granted}], blockInheritance}}. */
    public static final class Acl {
        public static final String ACES = "aces";
        public static final String PRINCIPAL = "principal";
        /** READ, WRITE or MANAGE. */
        public static final String PERMISSION = "permission";
        public static final String GRANTED = "granted";
        public static final String BLOCK_INHERITANCE = "blockInheritance";

        private Acl() {
        }
    }

    /** The field of the principals holding {@code permission} (its effective ACL's). */
    public static String holdersOf(Permission permission) {
        return switch (permission) {
            case READ -> READ_ACL;
            case WRITE -> WRITE_ACL;
            case MANAGE -> MANAGE_ACL;
        };
    }

    /** {@code parent.child}: the path of a nested field in a query. */
    public static String nested(String parent, String child) {
        return parent + "." + child;
    }

    private DocumentFields() {
    }
}

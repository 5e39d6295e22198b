package io.volumizer.schemas.acl;

/** The principals the system itself names, whatever the repository's own users and groups are. */
public final class Principals {

    /** Every authenticated caller. */
    public static final String EVERYONE = "Everyone";
    /** A group whose members bypass every ACL, as in Nuxeo. */
    public static final String ADMINISTRATORS = "administrators";

    private Principals() {
    }
}

package io.volumizer.schemas.acl;

/** The principals the system itself names, beside the users and groups an identity provider knows. */
public final class Principals {

    /** Every authenticated caller holds it. */
    public static final String EVERYONE = "Everyone";
    /** Its members bypass every ACL, as in Nuxeo. */
    public static final String ADMINISTRATORS = "administrators";

    private Principals() {
    }
}

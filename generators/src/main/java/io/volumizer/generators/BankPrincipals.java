package io.volumizer.generators;

/**
 * The bank's principals, as the generator's ACL layout names them; an identity provider's users and groups for the
 * bank must be named the same.
 */
public final class BankPrincipals {

    /** Reads the archive (statements past the archive age), which blocks inheritance. */
    public static final String AUDITORS = "auditors";
    /** Reads the restricted accounts, which block inheritance. */
    public static final String COMPLIANCE = "compliance";

    private static final String BRANCH_PREFIX = "branch-";
    private static final String CUSTOMER_PREFIX = "customer-";

    private BankPrincipals() {
    }

    /** The group of a state's branch staff, who may write everything in the state's folder: {@code branch-CA}. */
    public static String branch(String stateCode) {
        return BRANCH_PREFIX + stateCode;
    }

    /** Whether {@code principal} names one of the bank's groups (never a user). */
    public static boolean isGroup(String principal) {
        return AUDITORS.equals(principal) || COMPLIANCE.equals(principal) || principal.startsWith(BRANCH_PREFIX);
    }

    /** A customer's own user, who may read their folder: {@code customer-0000000042}. */
    public static String customer(String customerNumber) {
        return CUSTOMER_PREFIX + customerNumber;
    }
}

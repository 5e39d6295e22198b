package io.volumizer.schemas.acl;

import static io.volumizer.schemas.acl.AclInheritance.deny;
import static io.volumizer.schemas.acl.AclInheritance.effective;
import static io.volumizer.schemas.acl.AclInheritance.grant;
import static io.volumizer.schemas.event.Permission.MANAGE;
import static io.volumizer.schemas.event.Permission.READ;
import static io.volumizer.schemas.event.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.volumizer.schemas.event.Ace;
import io.volumizer.schemas.event.Acl;
import io.volumizer.schemas.event.EffectiveAcl;

class AclInheritanceTest {

    private static final EffectiveAcl PARENT = new EffectiveAcl(List.of("admins", "staff", "alice"),
            List.of("admins", "staff"), List.of("admins"));

    private static Acl acl(boolean block, Ace... aces) {
        return new Acl(List.of(aces), block);
    }

    @Test
    void aDocumentWithoutAnAclInheritsItsParentsAsItIs() {
        assertThat(effective(PARENT, null)).isSameAs(PARENT);
    }

    @Test
    void aRootStartsFromNothing() {
        assertThat(effective(null, null)).isEqualTo(AclInheritance.none());
        assertThat(effective(null, acl(false, grant("admins", MANAGE))))
                .isEqualTo(new EffectiveAcl(List.of("admins"), List.of("admins"), List.of("admins")));
    }

    @Test
    void aGrantAddsThePrincipalToItsPermissionAndTheLowerOnes() {
        EffectiveAcl child = effective(PARENT, acl(false, grant("bob", WRITE)));

        assertThat(child.getRead()).containsExactly("admins", "staff", "alice", "bob");
        assertThat(child.getWrite()).containsExactly("admins", "staff", "bob");
        assertThat(child.getManage()).containsExactly("admins");
    }

    @Test
    void aDenyRemovesThePrincipalFromItsPermissionAndTheHigherOnes() {
        EffectiveAcl readDenied = effective(PARENT, acl(false, deny("staff", READ)));
        EffectiveAcl writeDenied = effective(PARENT, acl(false, deny("admins", WRITE)));

        assertThat(readDenied).isEqualTo(new EffectiveAcl(List.of("admins", "alice"), List.of("admins"), List.of("admins")));
        assertThat(writeDenied).isEqualTo(new EffectiveAcl(List.of("admins", "staff", "alice"), List.of("staff"), List.of()));
    }

    @Test
    void aBlockStartsFromNothingButTheDocumentsOwnEntries() {
        EffectiveAcl blocked = effective(PARENT, acl(true, grant("auditors", READ)));

        assertThat(blocked).isEqualTo(new EffectiveAcl(List.of("auditors"), List.of(), List.of()));
        assertThat(effective(PARENT, acl(true))).isEqualTo(AclInheritance.none());
    }

    @Test
    void entriesApplyInOrderSoALaterOneOverridesAnEarlierOne() {
        assertThat(effective(PARENT, acl(false, grant("bob", MANAGE), deny("bob", WRITE))))
                .isEqualTo(new EffectiveAcl(List.of("admins", "staff", "alice", "bob"), List.of("admins", "staff"),
                        List.of("admins")));
        assertThat(effective(PARENT, acl(false, deny("alice", READ), grant("alice", READ))).getRead())
                .containsExactly("admins", "staff", "alice");
    }

    @Test
    void aDenyOfEveryoneRemovesOnlyThatEntry() {
        EffectiveAcl open = effective(null, acl(false, grant(Principals.EVERYONE, READ), grant("staff", READ)));

        assertThat(effective(open, acl(false, deny(Principals.EVERYONE, READ))).getRead()).containsExactly("staff");
    }

    @Test
    void theParentIsNeverChanged() {
        EffectiveAcl parent = new EffectiveAcl(List.of("a"), List.of("a"), List.of());
        effective(parent, acl(false, deny("a", READ), grant("b", MANAGE)));

        assertThat(parent).isEqualTo(new EffectiveAcl(List.of("a"), List.of("a"), List.of()));
    }
}

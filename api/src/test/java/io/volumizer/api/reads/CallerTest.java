package io.volumizer.api.reads;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.volumizer.generators.BankPrincipals;
import io.volumizer.schemas.acl.Principals;

class CallerTest {

    @Test
    void aCallerHoldsItsNameItsGroupsAndEveryone() {
        Caller caller = Caller.of("staff-ca-1", List.of(BankPrincipals.branch("CA")));

        assertThat(caller.principals()).containsExactlyInAnyOrder("staff-ca-1", "branch-CA", Principals.EVERYONE);
        assertThat(caller.administrator()).isFalse();
        assertThat(Caller.of("admin", List.of(Principals.ADMINISTRATORS)).administrator()).isTrue();
    }

    @Test
    void aUserNamedLikeAGroupHoldsNothingByThatName() {
        for (String group : List.of(Principals.ADMINISTRATORS, Principals.EVERYONE, BankPrincipals.COMPLIANCE,
                BankPrincipals.AUDITORS, BankPrincipals.branch("NY"))) {
            Caller caller = Caller.of(group, List.of());

            assertThat(caller.principals()).as(group).containsExactly(Principals.EVERYONE);
            assertThat(caller.administrator()).as(group).isFalse();
        }
    }
}

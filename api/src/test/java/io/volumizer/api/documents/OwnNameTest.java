package io.volumizer.api.documents;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OwnNameTest {

    @Test
    void aNonAdministratorsNameCarriesItsDocumentsId() {
        assertThat(DocumentWriteService.ownName("passport.jpg", "doc-3fa2c1d0-4b7e-4f00-9abc-def012345678"))
                .isEqualTo("passport.jpg~3fa2c1d04b7e");
        assertThat(DocumentWriteService.ownName("x", "ac-1-st-2025-01")).as("an id it did not generate, whole")
                .isEqualTo("x~ac-1-st-2025-01");
        assertThat(DocumentWriteService.ownName("x~ac-1-st-2025-01", "ac-1-st-2025-01")).as("written back as read")
                .isEqualTo("x~ac-1-st-2025-01");
    }

    @Test
    void aLongNameIsCutToLeaveRoomForTheId() {
        String name = DocumentWriteService.ownName("n".repeat(255), "doc-3fa2c1d0-4b7e-4f00-9abc-def012345678");
        assertThat(name).hasSize(255).endsWith("~3fa2c1d04b7e");
    }
}

package io.volumizer.generators.model;

import java.time.LocalDate;

/** A bank customer; {@code index} is its position in the run (0-based), {@code number} what the bank calls it. */
public record Customer(long index, String number, String firstName, String lastName, boolean female,
        LocalDate birthDate, String street, String city, String stateCode, String stateName, String zip,
        String email, String phone, LocalDate since, int accounts) {

    public String fullName() {
        return firstName + " " + lastName;
    }
}

package io.volumizer.stores;

/**
 * A value refused before anything is stored or run, naming where it was: a property's path
 * ({@code properties.<name>}) or a selection's filter. The API answers it as a bad request on that field.
 */
public final class InvalidFieldException extends IllegalArgumentException {

    private final String field;

    public InvalidFieldException(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}

package io.volumizer.schemas.registry;

/**
 * The registry holds a schema under the id asked for, but not one Avro can read: a JSON or Protobuf schema, or text
 * that does not parse. A fact about the id, not an outage: asking again gives the same answer.
 */
public final class NotAvroSchemaException extends SchemaRegistryException {

    private static final long serialVersionUID = 1L;

    public NotAvroSchemaException(String message, Throwable cause) {
        super(200, message, cause);
    }
}

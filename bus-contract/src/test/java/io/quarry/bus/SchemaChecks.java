package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;

/**
 * Validation against docs/schemas/quarry-bus.schema.json in the tests' strict view: the published schemas leave
 * objects open (a client must ignore fields added within a version), but here every object whose properties are
 * declared allows no other, so a field added to a record without its schema fails.
 */
final class SchemaChecks {

  private SchemaChecks() {
  }

  /** {@code schema} with {@code additionalProperties: false} wherever properties are declared and it says nothing. */
  static JsonObject strict(JsonObject schema) {
    JsonObject copy = schema.copy();
    close(copy);
    return copy;
  }

  private static void close(Object node) {
    if (node instanceof JsonObject object) {
      if (object.getValue("properties") instanceof JsonObject && !object.containsKey("additionalProperties")) {
        object.put("additionalProperties", false);
      }
      object.forEach(entry -> close(entry.getValue()));
    } else if (node instanceof JsonArray array) {
      array.forEach(SchemaChecks::close);
    }
  }

  /** Validates {@code instance} against {@code #/$defs/<name>} of {@code document} (strict or not, as given). */
  static OutputUnit validate(JsonObject document, String name, Object instance) {
    if (!document.getJsonObject("$defs").containsKey(name)) {
      throw new AssertionError("The schema has no $defs/" + name);
    }
    // The whole document as the root, so that the definition's $refs to the others resolve.
    JsonObject root = document.copy().put("$ref", "#/$defs/" + name.replace("~", "~0").replace("/", "~1"));
    return Validator.create(JsonSchema.of(root), new JsonSchemaOptions().setDraft(Draft.DRAFT202012)
        .setBaseUri("https://quarry.local/schemas/").setOutputFormat(OutputFormat.Basic)).validate(instance);
  }
}

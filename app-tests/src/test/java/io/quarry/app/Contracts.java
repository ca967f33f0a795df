package io.quarry.app;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.validation.ResponseValidator;
import io.vertx.openapi.validation.ValidatableResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The published contracts in the tests' strict view: the documents leave objects open (a client must ignore fields
 * added within a version), but here every object whose properties are declared allows no other, so a field the server
 * sends without the contract fails.
 */
final class Contracts {

  /** The media types vertx-openapi validates; a result's CSV and Parquet downloads are left out of its copy. */
  private static final Set<String> VALIDATED = Set.of("application/json");

  private Contracts() {
  }

  static JsonObject openApi() {
    try (InputStream in = Contracts.class.getClassLoader().getResourceAsStream("quarry/openapi.json")) {
      return new JsonObject(Buffer.buffer(in.readAllBytes()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonObject busSchema() {
    try {
      return new JsonObject(Files.readString(Path.of("..", "docs", "schemas", "quarry-bus.schema.json")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
      array.forEach(Contracts::close);
    }
  }

  /** The strict OpenAPI document as vertx-openapi takes it (its own check of the document against OpenAPI 3.1). */
  static ResponseValidator responses(Vertx vertx) {
    JsonObject document = strict(openApi());
    document.getJsonObject("paths").forEach(path -> ((JsonObject) path.getValue()).forEach(op -> {
      if (op.getValue() instanceof JsonObject operation && operation.containsKey("responses")) {
        operation.getJsonObject("responses").forEach(r -> {
          JsonObject content = ((JsonObject) r.getValue()).getJsonObject("content");
          if (content != null) {
            content.fieldNames().removeIf(type -> !VALIDATED.contains(type));
          }
        });
      }
    }));
    return ResponseValidator.create(vertx, OpenAPIContract.from(vertx, document).await());
  }

  /** Validates a real response as {@code operationId}'s; throws saying what does not fit. */
  static void validate(ResponseValidator validator, String operationId, HttpResponse<Buffer> response) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    response.headers().forEach(h -> headers.put(h.getKey(), h.getValue()));
    ValidatableResponse answer = response.body() == null || response.body().length() == 0
        ? ValidatableResponse.create(response.statusCode(), headers)
        : ValidatableResponse.create(response.statusCode(), headers, response.body(), response.getHeader("content-type"));
    try {
      validator.validate(answer, operationId).await();
    } catch (RuntimeException e) {
      throw new AssertionError(operationId + " answered " + response.statusCode() + " " + response.bodyAsString()
          + ", which its contract does not describe: " + e.getMessage()
          + (e instanceof io.vertx.openapi.validation.SchemaValidationException s ? " " + s.getOutputUnit() : ""), e);
    }
  }

  /** Validates {@code instance} against {@code #/$defs/<name>} of the strict bus schema. */
  static OutputUnit busValidate(String name, Object instance) {
    JsonObject root = strict(busSchema()).put("$ref", "#/$defs/" + name);
    return Validator.create(JsonSchema.of(root), new JsonSchemaOptions().setDraft(Draft.DRAFT202012)
        .setBaseUri("https://quarry.local/schemas/").setOutputFormat(OutputFormat.Basic)).validate(instance);
  }
}

package io.quarry.bus;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.shareddata.Shareable;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * A result's rows as JSON text: an array of row arrays. Rows are written once, by the worker that reads
 * them, and pass the bus, storage and HTTP as that text; only code that needs the values parses them
 * ({@link #toJsonArray}). Immutable, so a local delivery shares it instead of copying it, and JSON encoding writes it
 * as it is: Quarry's codec ({@link FastJsonCodec}) in Quarry's processes, and Vert.x's own (databind) in an
 * application's that uses the contract.
 */
public final class RowsJson extends JsonSerializable.Base implements Shareable {

  public static final RowsJson EMPTY = new RowsJson("[]", 0);

  private final String text;
  /** Rows in the text, or -1 when not known yet (text read back from storage). */
  private final int count;

  private RowsJson(String text, int count) {
    this.text = text;
    this.count = count;
  }

  public static RowsJson of(JsonArray rows) {
    return new RowsJson(rows.encode(), rows.size());
  }

  /**
   * Text that Quarry wrote as a JSON array earlier (as storage keeps it): it is written out as it is, so it
   * must never come from outside. Its rows are counted, by parsing, only when {@link #size} is asked.
   */
  public static RowsJson text(String json) {
    return new RowsJson(json, -1);
  }

  static RowsJson text(String json, int count) {
    return new RowsJson(json, count);
  }

  /** Writes rows one at a time straight to text, without building them as a tree first. */
  public static Writer writer() {
    return new Writer();
  }

  public String text() {
    return text;
  }

  public int size() {
    return count >= 0 ? count : toJsonArray().size();
  }

  /** Parses the rows: costs as much as the text is long, so call it only to read values. */
  public JsonArray toJsonArray() {
    try {
      return new JsonArray(text);
    } catch (DecodeException e) {
      throw new IllegalStateException("Rows are not a JSON array: " + e.getMessage(), e);
    }
  }

  /** The first {@code max} rows (this, when there are no more). */
  RowsJson first(int max) {
    if (count >= 0 && count <= max) {
      return this;
    }
    JsonArray all = toJsonArray();
    return all.size() <= max ? this : of(new JsonArray(all.getList().subList(0, max)));
  }

  @Override
  public RowsJson copy() {
    return this;
  }

  @Override
  public void serialize(JsonGenerator gen, SerializerProvider serializers) throws IOException {
    gen.writeRawValue(text);
  }

  @Override
  public void serializeWithType(JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer)
      throws IOException {
    serialize(gen, serializers);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RowsJson rows && rows.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }

  /** Row by row into one JSON array, with the same encoding as Vert.x's (and its number settings). */
  public static final class Writer {

    private final StringWriter out = new StringWriter(4096);
    private final JsonGenerator generator;
    private int count;

    private Writer() {
      try {
        generator = FastJsonCodec.generator(out);
        generator.writeStartArray();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** One row: values Vert.x JSON can hold (null, strings, numbers, booleans, JsonArray, JsonObject). */
    public Writer add(List<?> row) {
      try {
        FastJsonCodec.write(row, generator);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      count++;
      return this;
    }

    /** Characters written so far. */
    public int length() {
      try {
        generator.flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return out.getBuffer().length();
    }

    public RowsJson done() {
      try {
        generator.writeEndArray();
        generator.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new RowsJson(out.toString(), count);
    }
  }
}

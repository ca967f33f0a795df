package io.quarry.bus;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.netty.buffer.ByteBufInputStream;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.EncodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;
import io.vertx.core.spi.json.JsonCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

/**
 * Vert.x's JSON codec in every Quarry process ({@link Provider}, ahead of Vert.x's own): Jackson's streaming reader and
 * writer, as Vert.x's codec without jackson-databind, with Jackson's Schubfach writer and FastDoubleParser for doubles.
 * Java 17's {@code Double.toString} and {@code parseDouble} dominate the cost of a result of doubles (a 1,000-row one
 * encodes ~40 % and decodes ~50 % faster), and every result crosses a process boundary and is encoded again for HTTP;
 * both are exact: the text is the shortest that reads back to the same double. Vert.x's own codec, with databind on
 * the class path (the model SDKs bring it), goes through an {@code ObjectMapper}: building it cost each process 115–120
 * ms of its start, and each encode made serializer providers for a node streaming 200 answers to allocate. Quarry maps
 * no object to JSON but its own types' {@code toJson}, so a value JSON cannot hold fails as it would without databind;
 * the one exception, a result's rows already written as JSON ({@link RowsJson}), is written as the text it is.
 */
public final class FastJsonCodec extends JacksonCodec {

  /** Comments are allowed, as by Vert.x's own codec: a configuration file may have them. */
  static final JsonFactory FACTORY = JsonFactory.builder()
      .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
      .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
      .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
      .build();

  static final FastJsonCodec INSTANCE = new FastJsonCodec();

  /** Registered in {@code META-INF/services}: Vert.x takes the factory of the lowest order. */
  public static final class Provider implements io.vertx.core.spi.JsonFactory {

    @Override
    public int order() {
      return 0;
    }

    @Override
    public JsonCodec codec() {
      return INSTANCE;
    }
  }

  /** A generator over {@code out} that writes as this codec does (RowsJson writes rows with it). */
  static JsonGenerator generator(java.io.Writer out) throws IOException {
    return FACTORY.createGenerator(out);
  }

  @Override
  public <T> T fromString(String json, Class<T> type) throws DecodeException {
    return fromParser(parser(json), type);
  }

  @Override
  public <T> T fromBuffer(Buffer json, Class<T> type) throws DecodeException {
    return fromParser(parser(json), type);
  }

  @Override
  public Object fromString(String json) throws DecodeException {
    return fromParser(parser(json), Object.class);
  }

  @Override
  public Object fromBuffer(Buffer json) throws DecodeException {
    return fromParser(parser(json), Object.class);
  }

  @Override
  public String toString(Object value, boolean pretty) throws EncodeException {
    StringWriter out = new StringWriter();
    try (JsonGenerator generator = FACTORY.createGenerator(out)) {
      encode(value, pretty, generator);
    } catch (IOException e) {
      throw new EncodeException(e.getMessage(), e);
    }
    return out.toString();
  }

  @Override
  public Buffer toBuffer(Object value, boolean pretty) throws EncodeException {
    ByteArrayBuilder bytes = new ByteArrayBuilder();
    try (JsonGenerator generator = FACTORY.createGenerator(bytes)) {
      encode(value, pretty, generator);
    } catch (IOException e) {
      throw new EncodeException(e.getMessage(), e);
    }
    return Buffer.buffer(bytes.toByteArray());
  }

  private static void encode(Object value, boolean pretty, JsonGenerator generator) throws IOException {
    if (pretty) {
      generator.useDefaultPrettyPrinter();
    }
    write(value, generator);
  }

  /**
   * Writes {@code value} as Vert.x's codec does (each value that is not a container through its own code), and a
   * result's rows ({@link RowsJson}) as the JSON text they already are.
   */
  static void write(Object value, JsonGenerator generator) throws IOException {
    Object json = value instanceof JsonObject object ? object.getMap()
        : value instanceof JsonArray array ? array.getList() : value;
    if (json instanceof RowsJson rows) {
      generator.writeRawValue(rows.text());
    } else if (json instanceof Map<?, ?> map) {
      generator.writeStartObject();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        generator.writeFieldName((String) entry.getKey());
        write(entry.getValue(), generator);
      }
      generator.writeEndObject();
    } else if (json instanceof List<?> list) {
      generator.writeStartArray();
      for (Object item : list) {
        write(item, generator);
      }
      generator.writeEndArray();
    } else {
      encodeJson(json, generator);
    }
  }

  private static JsonParser parser(String json) {
    try {
      return FACTORY.createParser(json);
    } catch (IOException e) {
      throw new DecodeException("Failed to decode:" + e.getMessage(), e);
    }
  }

  private static JsonParser parser(Buffer json) {
    try {
      return FACTORY.createParser((InputStream) new ByteBufInputStream(((BufferInternal) json).getByteBuf()));
    } catch (IOException e) {
      throw new DecodeException("Failed to decode:" + e.getMessage(), e);
    }
  }
}

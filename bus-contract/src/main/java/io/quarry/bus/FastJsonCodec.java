package io.quarry.bus;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.SegmentedStringWriter;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.BufferRecycler;
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
import java.util.List;
import java.util.Map;

/**
 * Vert.x's JSON codec in Quarry's own processes ({@link Provider}, registered by the app module ahead of Vert.x's own;
 * an application that uses the contract keeps its own): Jackson's streaming reader and writer, as Vert.x's codec
 * without jackson-databind, with Jackson's Schubfach writer and FastDoubleParser for doubles.
 * Java 17's {@code Double.toString} and {@code parseDouble} dominate the cost of a result of doubles (a 1,000-row one
 * encodes ~40 % and decodes ~50 % faster), and every result crosses a process boundary and is encoded again for HTTP;
 * both are exact: the text is the shortest that reads back to the same double. Vert.x's own codec, with databind on
 * the class path (the model SDKs bring it), goes through an {@code ObjectMapper}: building it cost each process 115–120
 * ms of its start, and each encode made serializer providers for a node streaming 200 answers to allocate. Quarry maps
 * no object to JSON but its own types' {@code toJson}, so a value JSON cannot hold fails as it would without databind;
 * the one exception, a result's rows already written as JSON ({@link RowsJson}), is written as the text it is. It
 * writes the values results are made of without Vert.x's chain of type tests: 1,000 rows of five values in 0.36 ms
 * under C1 (as workers run), where Vert.x's streaming writer took 0.61 and its databind one 0.50.
 */
public final class FastJsonCodec extends JacksonCodec {

  /** Comments are allowed, as by Vert.x's own codec: a configuration file may have them. */
  static final JsonFactory FACTORY = JsonFactory.builder()
      .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
      .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
      .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
      .build();

  static final FastJsonCodec INSTANCE = new FastJsonCodec();

  /** Registered in the app module's {@code META-INF/services}: Vert.x takes the factory of the lowest order. */
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

  /** Into Jackson's recycled buffers, as Vert.x's own codec writes: a streamed answer's every token is encoded. */
  @Override
  public String toString(Object value, boolean pretty) throws EncodeException {
    BufferRecycler recycler = FACTORY._getBufferRecycler();
    try (SegmentedStringWriter out = new SegmentedStringWriter(recycler)) {
      try (JsonGenerator generator = FACTORY.createGenerator(out)) {
        encode(value, pretty, generator);
      }
      return out.getAndClear();
    } catch (IOException e) {
      throw new EncodeException(e.getMessage(), e);
    } finally {
      recycler.releaseToPool();
    }
  }

  @Override
  public Buffer toBuffer(Object value, boolean pretty) throws EncodeException {
    BufferRecycler recycler = FACTORY._getBufferRecycler();
    ByteArrayBuilder bytes = new ByteArrayBuilder(recycler);
    try {
      try (JsonGenerator generator = FACTORY.createGenerator(bytes)) {
        encode(value, pretty, generator);
      }
      return Buffer.buffer(bytes.toByteArray());
    } catch (IOException e) {
      throw new EncodeException(e.getMessage(), e);
    } finally {
      bytes.release();
      recycler.releaseToPool();
    }
  }

  private static void encode(Object value, boolean pretty, JsonGenerator generator) throws IOException {
    if (pretty) {
      generator.useDefaultPrettyPrinter();
    }
    write(value, generator);
  }

  /**
   * Writes {@code value} as Vert.x's codec does, and a result's rows ({@link RowsJson}) as the JSON text they already
   * are. The values a result is made of are written here directly; any other that is not a container (an instant,
   * bytes) by Vert.x's own code.
   */
  static void write(Object value, JsonGenerator generator) throws IOException {
    if (value instanceof String text) {
      generator.writeString(text);
    } else if (value instanceof Integer number) {
      generator.writeNumber(number);
    } else if (value instanceof Long number) {
      generator.writeNumber(number);
    } else if (value instanceof Double number) {
      generator.writeNumber(number);
    } else if (value instanceof Boolean bool) {
      generator.writeBoolean(bool);
    } else if (value == null) {
      generator.writeNull();
    } else if (value instanceof JsonArray array) {
      writeList(array.getList(), generator);
    } else if (value instanceof JsonObject object) {
      writeMap(object.getMap(), generator);
    } else if (value instanceof List<?> list) {
      writeList(list, generator);
    } else if (value instanceof Map<?, ?> map) {
      writeMap(map, generator);
    } else if (value instanceof RowsJson rows) {
      generator.writeRawValue(rows.text());
    } else {
      encodeJson(value, generator);
    }
  }

  private static void writeList(List<?> list, JsonGenerator generator) throws IOException {
    generator.writeStartArray();
    for (Object item : list) {
      write(item, generator);
    }
    generator.writeEndArray();
  }

  private static void writeMap(Map<?, ?> map, JsonGenerator generator) throws IOException {
    generator.writeStartObject();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      generator.writeFieldName((String) entry.getKey());
      write(entry.getValue(), generator);
    }
    generator.writeEndObject();
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

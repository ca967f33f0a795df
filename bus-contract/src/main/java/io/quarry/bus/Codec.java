package io.quarry.bus;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Function;

/**
 * How one side of an {@link Operation} travels: the value a caller or receiver holds, and the body on the bus (a JSON
 * object, so that other applications read it; a buffer only where the bytes are already JSON text, a query's rows).
 * Decoding a request checks it: a missing field is a BAD_REQUEST naming it ({@link Fields}).
 */
public interface Codec<T> {

  Object encode(T value);

  T decode(Object body);

  /** A JSON object both ways. */
  static <T> Codec<T> json(Function<T, JsonObject> encode, Function<JsonObject, T> decode) {
    return of(encode, body -> decode.apply(body == null ? new JsonObject() : (JsonObject) body));
  }

  /** Bytes both ways (they are JSON text the receiver wrote straight from its rows). */
  static <T> Codec<T> buffer(Function<T, Buffer> encode, Function<Buffer, T> decode) {
    return of(encode, body -> decode.apply((Buffer) body));
  }

  private static <T> Codec<T> of(Function<T, ?> encode, Function<Object, T> decode) {
    return new Codec<>() {
      @Override
      public Object encode(T value) {
        return encode.apply(value);
      }

      @Override
      public T decode(Object body) {
        return decode.apply(body);
      }
    };
  }

  /** A list travels as {@code {items: [...]}}: every body is a JSON object. */
  static <T> Codec<List<T>> items(Codec<T> item) {
    return json(list -> new JsonObject().put(Keys.ITEMS, new JsonArray(list.stream().map(item::encode).toList())),
        json -> json.getJsonArray(Keys.ITEMS, new JsonArray()).stream().map(item::decode).toList());
  }

  /** Nothing to say: {@code {}}. */
  Codec<Void> NONE = json(none -> new JsonObject(), json -> null);
}

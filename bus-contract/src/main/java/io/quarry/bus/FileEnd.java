package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.List;

/**
 * The last bytes of one version of a remote file, footer included, as adding it read them a moment ago: a worker that
 * holds no copy of the file starts its copy from these instead of asking the origin for them again, so the engine's
 * first look at a file far away costs no round trip. {@code [{url, from, size, etag, last_modified, cache_control,
 * bytes}]}, the bytes in Base64.
 *
 * @param from where {@code bytes} start in the file; they run to its end ({@code size})
 * @param etag null when its server gives none
 * @param lastModified null when its server gives none
 * @param cacheControl the origin's {@code Cache-Control}, which sets how long the copy is used unasked; null when unsaid
 */
public record FileEnd(String url, long from, long size, String etag, String lastModified, String cacheControl,
    byte[] bytes) {

  /** The most one request carries: a footer longer than this is fetched by the worker itself. */
  public static final int MAX_BYTES = 1 << 20;

  public JsonObject toJson() {
    return new JsonObject().put("url", url).put("from", from).put("size", size).put("etag", etag)
        .put("last_modified", lastModified).put("cache_control", cacheControl)
        .put("bytes", Base64.getEncoder().encodeToString(bytes));
  }

  public static FileEnd fromJson(JsonObject json) {
    return new FileEnd(json.getString("url"), json.getLong("from"), json.getLong("size"), json.getString("etag"),
        json.getString("last_modified"), json.getString("cache_control"),
        Base64.getDecoder().decode(json.getString("bytes")));
  }

  public static JsonArray toJson(List<FileEnd> ends) {
    return new JsonArray(ends.stream().map(FileEnd::toJson).toList());
  }

  public static List<FileEnd> of(JsonArray ends) {
    return ends == null ? List.of() : ends.stream().map(e -> fromJson((JsonObject) e)).toList();
  }
}

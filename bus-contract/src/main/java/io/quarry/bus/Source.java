package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Objects;

/**
 * The version of one file a query read, as its worker last confirmed it: a result's {@code sources} are a list of
 * these, {@code [{table, url, etag, last_modified, size, confirmed_at}]}.
 *
 * @param etag null when its server gives none
 * @param lastModified null when its server gives none
 * @param size null when not known
 * @param confirmedAt when its server last confirmed this version current (ISO-8601), or null: a worker uses a copy
 *     confirmed within its freshness window without asking again
 */
public record Source(String table, String url, String etag, String lastModified, Long size, String confirmedAt) {

  public Source(String table, String url, String etag, String lastModified, Long size) {
    this(table, url, etag, lastModified, size, null);
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("table", table).put("url", url).put("etag", etag)
        .put("last_modified", lastModified).put("size", size);
    return confirmedAt == null ? json : json.put("confirmed_at", confirmedAt);
  }

  public static Source fromJson(JsonObject json) {
    return new Source(json.getString("table"), json.getString("url"), json.getString("etag"),
        json.getString("last_modified"), json.getLong("size"), json.getString("confirmed_at"));
  }

  public static JsonArray toJson(List<Source> sources) {
    return new JsonArray(sources.stream().map(Source::toJson).toList());
  }

  public static List<Source> of(JsonArray sources) {
    return sources == null ? List.of() : sources.stream().map(s -> fromJson((JsonObject) s)).toList();
  }

  /** Whether {@code now} is another version of the same file: its ETag, Last-Modified or size differ where both say. */
  public boolean changedIn(Source now) {
    return Objects.equals(url, now.url) && (differ(etag, now.etag) || differ(lastModified, now.lastModified)
        || differ(size, now.size));
  }

  private static boolean differ(Object a, Object b) {
    return a != null && b != null && !a.toString().equals(b.toString());
  }
}

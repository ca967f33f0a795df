package io.quarry.bus;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;

/**
 * A query's whole result written to a file instead of its first rows (the result's download): in which format, and
 * how large it may be. The worker that writes it answers where to read it from ({@link #CHUNK}).
 *
 * @param format {@code csv}, {@code parquet} or {@code json} (one JSON array of row objects)
 */
public record Export(String format, long maxRows, long maxBytes) {

  public static final List<String> FORMATS = List.of("csv", "parquet", "json");
  /** Bytes a chunk of an export carries at most. */
  public static final int CHUNK_BYTES = 1 << 20;
  /**
   * What an export's reader sends to the address its worker answered: {@link #chunkAt} → the next bytes (at most
   * {@link #CHUNK_BYTES}, none past the end), {@link #done} → the file is deleted.
   */
  public static final String CHUNK = "offset";
  public static final String DONE = "done";

  public static JsonObject chunkAt(long offset) {
    return new JsonObject().put(CHUNK, offset);
  }

  public static JsonObject done() {
    return new JsonObject().put(DONE, true);
  }

  /**
   * The file a worker wrote, as its reply's {@code export} says: where to read it, and what it holds.
   *
   * @param sources the versions of the files its query read, as its result's {@link QueryResult#sourceList()}: compare
   *     them with another result's ({@link #changed}) to know whether the two read the same data
   */
  public record File(String address, String format, long rows, long bytes, List<Source> sources) {

    public File {
      sources = sources == null ? List.of() : List.copyOf(sources);
    }

    /** As its worker writes it: the sources are known once the query's answer has them. */
    public File(String address, String format, long rows, long bytes) {
      this(address, format, rows, bytes, List.of());
    }

    /** An export's reply: its file, carrying the sources the reply names. */
    public static File of(QueryResult result) {
      File file = fromJson(result.export());
      return file.sources.isEmpty() ? new File(file.address, file.format, file.rows, file.bytes, result.sourceList())
          : file;
    }

    public JsonObject toJson() {
      return new JsonObject().put("address", address).put("format", format).put("rows", rows).put("bytes", bytes)
          .put("sources", Source.toJson(sources));
    }

    public static File fromJson(JsonObject json) {
      return new File(json.getString("address"), json.getString("format"), json.getLong("rows"),
          json.getLong("bytes"), Source.of(json.getJsonArray("sources")));
    }
  }

  /**
   * Why the event-bus bridge refuses {@code api.query.export}: the file is written on a worker and only a web node
   * streams it, in chunks over the cluster's bus, which a bridge client is not a member of.
   */
  public static final String NOT_ON_BRIDGE = "api.query.export writes its file on a worker, which only a web node"
      + " streams: download a result's whole data over REST instead (GET /api/results/<id>/export?format=csv, parquet"
      + " or json)";

  /** Why a result's export was refused: a file it read is not the version it read then. */
  public static final String DATA_CHANGED = "The data has changed since this result: run its query again to see"
      + " and export the data as it is now";

  /**
   * Whether a file read {@code then} (a result's {@code sources}) was read in another version {@code now}: its
   * ETag, Last-Modified or size differ. A file the earlier result does not name counts as unchanged.
   */
  public static boolean changed(List<Source> then, List<Source> now) {
    return then.stream().anyMatch(before -> now.stream().anyMatch(before::changedIn));
  }

  /** The media type of a file in {@code format}. */
  public static String contentType(String format) {
    return switch (format) {
      case "csv" -> "text/csv; charset=utf-8";
      case "parquet" -> "application/vnd.apache.parquet";
      default -> "application/json";
    };
  }

  public static String tooManyRows(long maxRows) {
    return "The export would have more than " + String.format(Locale.ROOT, "%,d", maxRows)
        + " rows (export.maxRows): narrow the query, or ask your operator for a higher limit";
  }

  public static String tooManyBytes(long maxBytes) {
    return "The export would be larger than " + Sizes.human(maxBytes)
        + " (export.maxBytes): narrow the query, or ask your operator for a higher limit";
  }

  /** Why a download was refused (429): its user has {@code max} in progress already (export.maxConcurrentPerUser). */
  public static String tooManyDownloads(int max) {
    return "You have " + max + (max == 1 ? " download" : " downloads") + " in progress; wait for one to finish";
  }

  /**
   * Why an export was refused (429) although it fits {@code export.maxBytes} alone: its user's downloads in progress
   * hold {@code held} bytes on its worker's disk, and with this one they would hold more than the limit.
   */
  public static String tooManyBytesHeld(long held, long maxBytes) {
    return "Your downloads in progress hold " + Sizes.human(held) + " and this one would take them past "
        + Sizes.human(maxBytes) + " (export.maxBytes): wait for one to finish";
  }

  public JsonObject toJson() {
    return new JsonObject().put("format", format).put("max_rows", maxRows).put("max_bytes", maxBytes);
  }

  public static Export fromJson(JsonObject json) {
    return json == null ? null : new Export(json.getString("format"), json.getLong("max_rows", 0L),
        json.getLong("max_bytes", 0L));
  }
}

package io.quarry.testing;

import static io.quarry.bus.Addresses.*;
import static io.quarry.bus.Keys.required;

import io.quarry.bus.Dataset;
import io.quarry.bus.Failure;
import io.quarry.bus.Keys;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * The dataset verticle without DuckDB or HTTP, for testing its callers (the llm verticle's tools) alone: each
 * SQL and each URL is answered as the test scripted it, with a result or dataset, or with the failure the real
 * verticle would send (e.g. {@code new QuarryException(Failure.SQL, "Column 'x' does not exist. Available
 * columns: ...", "Binder Error: Referenced column \"x\" not found ...")}). Unlike the real one it stores
 * nothing: a test that reads a result back seeds it in {@link FakeStorage}. Every request is recorded (see
 * {@link BusFake}).
 */
public final class FakeDatasets extends BusFake {

  /** By SQL, and by URL: each answer is made from the request it answers. */
  private final Map<String, Function<JsonObject, QueryResult>> bySql = new HashMap<>();
  private final Map<String, Function<JsonObject, Dataset>> byUrl = new HashMap<>();
  /** What {@code add} answered, by id, so that rename, refresh and remove find them. */
  private final Map<String, Dataset> loaded = new HashMap<>();

  private FakeDatasets() {
  }

  /** Deployed, its addresses bound. */
  public static Future<FakeDatasets> start(Vertx vertx) {
    return deploy(vertx, new FakeDatasets());
  }

  @Override
  protected Map<String, Function<JsonObject, JsonObject>> handlers() {
    return Map.of(
        DATASET_QUERY_RUN, this::query,
        DATASET_ADD, this::add,
        DATASET_RENAME, body -> keep(StoredDatasets.renamed(find(body), required(body, Keys.NAME))).toJson(),
        DATASET_REFRESH, body -> find(body).toJson(),
        DATASET_REMOVE, body -> loaded.remove(find(body).id()).toJson());
  }

  /**
   * {@code sql} is answered with {@code result}, given the asking conversation, the SQL and a time as the real
   * one stores it; its id is kept (so the test can seed the same result in storage), or made up when null.
   */
  public Future<Void> answer(String sql, QueryResult result) {
    return script(bySql, sql, request -> result);
  }

  /** {@code sql} fails with {@code failure}: its code and message, and its details such as DuckDB's own text. */
  public Future<Void> fail(String sql, QuarryException failure) {
    return script(bySql, sql, request -> {
      throw failure;
    });
  }

  /** Adding {@code url} answers with a ready dataset of that name, row count and schema. */
  public Future<Void> load(String url, String name, long rowCount, JsonArray schema) {
    return script(byUrl, url,
        request -> StoredDatasets.ready(request.getString(Keys.CONVERSATION_ID), url, name, rowCount, schema));
  }

  /** Adding {@code url} fails with {@code failure}, e.g. BAD_REQUEST "Could not access URL" with its details. */
  public Future<Void> refuse(String url, QuarryException failure) {
    return script(byUrl, url, request -> {
      throw failure;
    });
  }

  /** The SQL of every query asked, oldest first. */
  public Future<List<String>> queries() {
    return requests().map(all -> all.stream()
        .filter(r -> r.address().equals(DATASET_QUERY_RUN))
        .map(r -> r.body().getString(Keys.SQL))
        .toList());
  }

  private <T> Future<Void> script(Map<String, Function<JsonObject, T>> answers, String key,
      Function<JsonObject, T> answer) {
    return onLoop(() -> {
      answers.put(key, answer);
      return null;
    });
  }

  private JsonObject query(JsonObject body) {
    required(body, Keys.USER_ID);
    String conversationId = required(body, Keys.CONVERSATION_ID);
    String sql = required(body, Keys.SQL);
    QueryResult r = scripted(bySql, sql, "SQL").apply(body).capped();
    return r.withIdentity(null, conversationId, sql)
        .stored(r.id() == null ? UUID.randomUUID().toString() : r.id(), Timestamps.now())
        .toJson();
  }

  private JsonObject add(JsonObject body) {
    required(body, Keys.USER_ID);
    required(body, Keys.CONVERSATION_ID);
    return keep(scripted(byUrl, required(body, Keys.URL), "URL").apply(body)).toJson();
  }

  /** What the test did not script fails loudly rather than as something the real verticle might say. */
  private static <T> Function<JsonObject, T> scripted(Map<String, Function<JsonObject, T>> answers, String key,
      String what) {
    Function<JsonObject, T> answer = answers.get(key);
    if (answer == null) {
      throw new QuarryException(Failure.INTERNAL, "FakeDatasets has no answer scripted for " + what + ": " + key);
    }
    return answer;
  }

  private Dataset keep(Dataset d) {
    loaded.put(d.id(), d);
    return d;
  }

  /** As the real one (through storage) says of a dataset that is not the conversation's. */
  private Dataset find(JsonObject body) {
    required(body, Keys.USER_ID);
    Dataset d = loaded.get(required(body, Keys.DATASET_ID));
    if (d == null || !d.conversationId().equals(required(body, Keys.CONVERSATION_ID))) {
      throw QuarryException.notFound(StoredDatasets.NOT_FOUND);
    }
    return d;
  }
}

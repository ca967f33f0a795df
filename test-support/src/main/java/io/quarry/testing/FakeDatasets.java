package io.quarry.testing;

import static io.quarry.bus.DatasetOps.*;

import io.quarry.bus.ChartData;
import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetOps.AddDataset;
import io.quarry.bus.DatasetOps.ChartRequest;
import io.quarry.bus.DatasetOps.RunQuery;
import io.quarry.bus.Failure;
import io.quarry.bus.Fields;
import io.quarry.bus.Keys;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Scopes.DatasetRef;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
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
  private final Map<String, Function<RunQuery, QueryResult>> bySql = new HashMap<>();
  private final Map<String, Function<AddDataset, Dataset>> byUrl = new HashMap<>();
  /** How charts are drawn: by default, with no rows and a sentence that says the fake drew it. */
  private Function<ChartRequest, ChartData> charts = request -> new ChartData(request.spec(), new JsonArray(),
      new JsonArray(), "drawn by FakeDatasets");
  /** How profiles are answered: by default, NOT_FOUND. */
  private Function<io.quarry.bus.DatasetOps.ProfileRequest, io.quarry.bus.Profile> profiles = request -> {
    throw new QuarryException(Failure.NOT_FOUND, "No profile scripted");
  };
  /** What {@code add} answered, by id, so that rename, refresh and remove find them. */
  private final Map<String, Dataset> loaded = new HashMap<>();

  private FakeDatasets() {
  }

  /** Deployed, its addresses bound. */
  public static Future<FakeDatasets> start(Vertx vertx) {
    return deploy(vertx, new FakeDatasets());
  }

  @Override
  protected List<Handler<?, ?>> handlers() {
    return List.of(
        handle(QUERY_RUN, this::query),
        handle(CHART, request -> charts.apply(request)),
        handle(ADD, this::add),
        handle(RENAME, rename -> keep(StoredDatasets.renamed(find(rename.ref()), Fields.text(Keys.NAME, rename.name())))),
        handle(REFRESH, this::find),
        handle(REMOVE, ref -> loaded.remove(find(ref).id())),
        handle(PROFILE, request -> profiles.apply(request)));
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

  /** Charts are answered by {@code draw}, from the request (its spec as the caller checked it). */
  public Future<Void> charts(Function<ChartRequest, ChartData> draw) {
    return onLoop(() -> {
      charts = draw;
      return null;
    });
  }

  /** Profiles are answered by {@code answer}, from the request (its dataset id and column). */
  public Future<Void> profiles(Function<io.quarry.bus.DatasetOps.ProfileRequest, io.quarry.bus.Profile> answer) {
    return onLoop(() -> {
      profiles = answer;
      return null;
    });
  }

  /** Adding {@code url} answers with a ready dataset of that name, row count and schema. */
  public Future<Void> load(String url, String name, long rowCount, JsonArray schema) {
    return script(byUrl, url,
        request -> StoredDatasets.ready(request.conversationId(), url, name, rowCount, schema));
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
        .filter(r -> r.request() instanceof RunQuery)
        .map(r -> ((RunQuery) r.request()).sql())
        .toList());
  }

  private <Q, T> Future<Void> script(Map<String, Function<Q, T>> answers, String key, Function<Q, T> answer) {
    return onLoop(() -> {
      answers.put(key, answer);
      return null;
    });
  }

  private QueryResult query(RunQuery query) {
    QueryResult r = scripted(bySql, query.sql(), "SQL").apply(query).capped();
    return r.withIdentity(null, query.conversationId(), query.sql())
        .stored(r.id() == null ? UUID.randomUUID().toString() : r.id(), Timestamps.now());
  }

  private Dataset add(AddDataset add) {
    return keep(scripted(byUrl, Fields.text(Keys.URL, add.url()), "URL").apply(add));
  }

  /** What the test did not script fails loudly rather than as something the real verticle might say. */
  private static <Q, T> Function<Q, T> scripted(Map<String, Function<Q, T>> answers, String key, String what) {
    Function<Q, T> answer = answers.get(key);
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
  private Dataset find(DatasetRef ref) {
    Dataset d = loaded.get(ref.datasetId());
    if (d == null || !d.conversationId().equals(ref.conversationId())) {
      throw QuarryException.notFound(StoredDatasets.NOT_FOUND);
    }
    return d;
  }
}

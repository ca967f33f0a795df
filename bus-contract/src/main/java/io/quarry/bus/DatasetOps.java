package io.quarry.bus;

import static io.quarry.bus.Addresses.*;
import static io.quarry.bus.Fields.text;

import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.DatasetRef;
import io.quarry.bus.StorageOps.RenameDataset;
import io.vertx.core.json.JsonObject;

/**
 * The dataset-verticle's operations: adding a URL runs the validation pipeline (BAD_REQUEST with the seed's exact
 * message when a step fails), and SQL runs over a conversation's ready datasets.
 */
public final class DatasetOps {

  private DatasetOps() {
  }

  /**
   * {@code url} is checked by the pipeline's first step, which names a missing one "Invalid URL format". Its secrets
   * cross the bus sealed ({@link UrlSecrets#sealed}), as everything after it carries them.
   */
  public record AddDataset(String userId, String conversationId, String url) {
    static final Codec<AddDataset> CODEC = Codec.json(
        r -> new ConversationRef(r.userId, r.conversationId).toJson()
            .put(Keys.URL, r.url == null ? null : UrlSecrets.sealed(r.url)),
        json -> new AddDataset(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID),
            Fields.optional(json, Keys.URL)));
  }

  /**
   * SQL over the conversation's ready datasets. {@code stopKey}: what {@link QueryStops#publish} names to stop it
   * (empty for none); {@code export}: the whole result written for download instead ({@link Export}), or null;
   * {@code queryId}: the same in every delivery of one request, so that a delivery sent again when a member left (see
   * {@link Resend#NOT_ON_TIMEOUT}) joins the query it repeats instead of running, and waiting, a second time (a new
   * one when a request names none).
   */
  public record RunQuery(String userId, String conversationId, String sql, String stopKey, Export export,
      String queryId) {
    static final Codec<RunQuery> CODEC = Codec.json(
        r -> new ConversationRef(r.userId, r.conversationId).toJson().put(Keys.SQL, r.sql).put(Keys.STOP_KEY, r.stopKey)
            .put(Keys.EXPORT, r.export == null ? null : r.export.toJson()).put(Keys.QUERY_ID, r.queryId),
        json -> new RunQuery(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID), text(json, Keys.SQL),
            json.getString(Keys.STOP_KEY, ""), Export.fromJson(json.getJsonObject(Keys.EXPORT)),
            json.getValue(Keys.QUERY_ID) instanceof String id ? id : java.util.UUID.randomUUID().toString()));

    /** A new request, its own id. */
    public RunQuery(String userId, String conversationId, String sql, String stopKey, Export export) {
      this(userId, conversationId, sql, stopKey, export, java.util.UUID.randomUUID().toString());
    }
  }

  /** A chart of the user's stored result {@code resultId}, as {@link ChartSpec} checks it. */
  public record ChartRequest(String userId, String resultId, JsonObject spec, String stopKey) {
    static final Codec<ChartRequest> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.RESULT_ID, r.resultId).put("spec", r.spec)
            .put(Keys.STOP_KEY, r.stopKey),
        json -> new ChartRequest(text(json, Keys.USER_ID), text(json, Keys.RESULT_ID),
            json.getValue("spec") instanceof JsonObject spec ? spec : new JsonObject(),
            json.getString(Keys.STOP_KEY, "")));
  }

  /**
   * A dataset's column profile ({@link Profile}); {@code column}: the one whose most frequent values and histogram
   * come with it, or null for none.
   */
  public record ProfileRequest(String userId, String conversationId, String datasetId, String column,
      String stopKey) {
    static final Codec<ProfileRequest> CODEC = Codec.json(
        r -> new DatasetRef(r.userId, r.conversationId, r.datasetId).toJson().put(Keys.COLUMN, r.column)
            .put(Keys.STOP_KEY, r.stopKey),
        json -> new ProfileRequest(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID),
            text(json, Keys.DATASET_ID), Fields.optional(json, Keys.COLUMN), json.getString(Keys.STOP_KEY, "")));
  }

  /** How many of the conversation's servers were asked whether their file changed, and how many had. */
  public record VersionsChecked(int checked, long changed) {
    static final Codec<VersionsChecked> CODEC = Codec.json(VersionsChecked::toJson,
        json -> new VersionsChecked(json.getInteger(Keys.CHECKED, 0), json.getLong(Keys.CHANGED, 0L)));

    public JsonObject toJson() {
      return new JsonObject().put(Keys.CHECKED, checked).put(Keys.CHANGED, changed);
    }
  }

  private static final Codec<Dataset> DATASET = StorageOps.DATASET;

  /** Runs the pipeline's steps; sent once, since a second add of the same URL is refused as already loaded. */
  public static final Operation<AddDataset, Dataset> ADD = Operation.of(DATASET_ADD, AddDataset.CODEC, DATASET,
      Deliveries.DATASET_TIMEOUT_MS, Resend.NEVER);
  /** CONFLICT when another dataset of the conversation has that name. */
  public static final Operation<RenameDataset, Dataset> RENAME = Operation.of(DATASET_RENAME, RenameDataset.CODEC,
      DATASET, Deliveries.STORAGE_TIMEOUT_MS, Resend.IDEMPOTENT);
  /** Re-runs pipeline steps 2–5 for a dataset already added. */
  public static final Operation<DatasetRef, Dataset> REFRESH = Operation.of(DATASET_REFRESH, DatasetRef.CODEC, DATASET,
      Deliveries.DATASET_TIMEOUT_MS, Resend.NEVER);
  public static final Operation<DatasetRef, Dataset> REMOVE = Operation.of(DATASET_REMOVE, DatasetRef.CODEC, DATASET,
      Deliveries.STORAGE_TIMEOUT_MS, Resend.NEVER);
  /**
   * Runs SQL over the conversation's ready datasets and stores the result (at most 1,000 rows), or writes the whole
   * result for download. A query only reads, so one whose dataset node leaves the cluster is sent again to another.
   * Fails with SQL, TIMEOUT, NETWORK, BAD_REQUEST (not a read query), TOO_LARGE (an export past its limits) or
   * UNAVAILABLE (busy, no worker). Its caller waits as long as its time limit says ({@link QueryTimeouts}).
   */
  public static final Operation<RunQuery, QueryResult> QUERY_RUN = Operation.of(DATASET_QUERY_RUN, RunQuery.CODEC,
      Codec.json(QueryResult::toJson, QueryResult::fromJson), Deliveries.DATASET_TIMEOUT_MS, Resend.NOT_ON_TIMEOUT);
  /**
   * A chart computed from every row of a stored result: its SQL runs again on a worker, aggregated as the chart
   * needs. NOT_FOUND for another user's result, BAD_REQUEST for a spec that does not fit it (saying why), CONFLICT
   * when the data changed since the result ({@link ChartSpec#DATA_CHANGED}).
   */
  public static final Operation<ChartRequest, ChartData> CHART = Operation.of(DATASET_CHART, ChartRequest.CODEC,
      Codec.json(ChartData::toJson, ChartData::fromJson), Deliveries.DATASET_TIMEOUT_MS, Resend.NOT_ON_TIMEOUT);
  /**
   * A ready dataset's column profile, computed once per version of its file: footer statistics first (no scan), the
   * rest by queries on a worker like any other, within {@code dataset.profileMaxBytes}. NOT_FOUND (not the user's, or
   * no column of that name), CONFLICT (the dataset is not ready), TOO_LARGE (a column's values past the budget), and
   * what a query fails with.
   */
  public static final Operation<ProfileRequest, Profile> PROFILE = Operation.of(DATASET_PROFILE, ProfileRequest.CODEC,
      Codec.json(Profile::toJson, Profile::fromJson), Deliveries.DATASET_TIMEOUT_MS, Resend.NOT_ON_TIMEOUT);
  /**
   * Asks the servers of the conversation's ready datasets (HEAD) whether their files changed since they were
   * recorded: a changed one takes its new version and its browsers hear {@code dataset_loaded}. Each dataset is asked
   * at most once per {@code dataset.versionCheckIntervalMs}.
   */
  public static final Operation<ConversationRef, VersionsChecked> VERSIONS_CHECK = Operation.of(DATASET_VERSIONS_CHECK,
      ConversationRef.CODEC, VersionsChecked.CODEC, Deliveries.DATASET_TIMEOUT_MS, Resend.NEVER);
}

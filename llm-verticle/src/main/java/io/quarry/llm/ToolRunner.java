package io.quarry.llm;

import static io.quarry.bus.ChatEvents.*;

import io.quarry.bus.ChartData;
import io.quarry.bus.ChartSpec;
import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.Failure;
import io.quarry.bus.Profile;
import io.quarry.bus.QueryResult;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Runs one tool call over the bus and says what happened as the function response: execute_sql on a
 * worker (through the dataset verticle, which stores the result), load_dataset through the validation
 * pipeline, render_chart and render_table against a stored result. Failures become responses too, so
 * the model can correct itself.
 */
final class ToolRunner {

  /** Columns a describe_columns answer lists at most. */
  static final int MAX_PROFILED = 200;

  private final DatasetClient datasets;
  private final StorageClient storage;
  private final Events events;
  private final String stopKey;
  private final String userId;
  private final String conversationId;
  private final TurnRecord record;

  /** @param stopKey names this turn's queries, to stop them with it */
  ToolRunner(DatasetClient datasets, StorageClient storage, Events events, String userId, String conversationId,
      String stopKey, TurnRecord record) {
    this.stopKey = stopKey;
    this.datasets = datasets;
    this.storage = storage;
    this.events = events;
    this.userId = userId;
    this.conversationId = conversationId;
    this.record = record;
  }

  /** The turn stopped: its query, if one runs, stops too, and so does the fetch of data only it waits for. */
  void stop() {
    datasets.stopQueries(stopKey);
  }

  Future<JsonObject> run(String tool, JsonObject args) {
    events.emit(toolCallStart(conversationId, tool, args));
    return switch (tool) {
      case Tools.EXECUTE_SQL -> executeSql(args.getString("query", ""));
      case Tools.LOAD_DATASET -> loadDataset(args.getString("url", ""));
      case Tools.RENDER_CHART -> renderChart(args);
      case Tools.RENDER_TABLE -> renderTable(args);
      case Tools.DESCRIBE_COLUMNS -> describeColumns(args.getString("table", ""), args.getString("column"));
      default -> Future.succeededFuture(error("Unknown tool '" + tool + "'", null));
    };
  }

  private Future<JsonObject> executeSql(String sql) {
    events.phase("executing");
    record.sql.add(sql);
    return datasets.query(userId, conversationId, sql, stopKey).transform(outcome -> {
      events.phase("formatting");
      if (outcome.succeeded()) {
        QueryResult result = outcome.result();
        record.resultIds.add(result.id());
        record.results.put(result.id(), result);
        events.emit(queryResult(result));
        return Future.succeededFuture(ResultSummary.toolResponse(result));
      }
      record.sqlFailures++;
      String message = Failure.messageOf(outcome.cause());
      events.emit(queryError(conversationId, sql, message));
      return Future.succeededFuture(error(message, Failure.classify(outcome.cause()).errorType()));
    });
  }

  private Future<JsonObject> loadDataset(String url) {
    return datasets.add(userId, conversationId, url).transform(outcome -> outcome.succeeded()
        ? Future.succeededFuture(new JsonObject().put("status", "loaded").put("table", outcome.result().name())
            .put("row_count", outcome.result().rowCount()).put("columns", outcome.result().schema()))
        : Future.succeededFuture(error(Failure.messageOf(outcome.cause()), null)
            .put("details", Failure.detailsOf(outcome.cause()))
            .put("hint", "Tell the user the dataset could not be loaded and suggest adding it in the datasets panel")));
  }

  /**
   * The table's column profile ({@link Profile}), computed once per version of its file; at most
   * {@link #MAX_PROFILED} columns go back, so a very wide table's answer stays bounded.
   */
  private Future<JsonObject> describeColumns(String table, String column) {
    events.phase("executing");
    return storage.datasets(userId, conversationId).compose(tables -> {
      Dataset dataset = tables.stream().filter(d -> d.name().equalsIgnoreCase(table)).findFirst().orElse(null);
      if (dataset == null) {
        return Future.succeededFuture(error("No table '" + table + "' in this conversation; its tables are: "
            + String.join(", ", tables.stream().map(Dataset::name).toList()), null));
      }
      return datasets.profile(userId, conversationId, dataset.id(), column == null || column.isBlank() ? null : column,
          stopKey).map(profile -> described(dataset.name(), profile));
    }).recover(e -> Future.succeededFuture(error(Failure.messageOf(e), Failure.classify(e).errorType())));
  }

  private static JsonObject described(String table, Profile profile) {
    int columns = profile.columns().size();
    Profile shown = columns <= MAX_PROFILED ? profile : new Profile(profile.rows(),
        profile.columns().subList(0, MAX_PROFILED), profile.top(), profile.note());
    JsonObject json = shown.toJson().put("table", table).put("hint", "distinct is an estimate"
        + " (approx_count_distinct); from_statistics means nulls, min and max came from the file's footer");
    return columns <= MAX_PROFILED ? json : json.put("columns_left_out", columns - MAX_PROFILED);
  }

  /** Drawn from every row of the result, on a worker; the response says what the chart shows. */
  private Future<JsonObject> renderChart(JsonObject args) {
    return result(args).transform(outcome -> {
      if (outcome.failed()) {
        return Future.succeededFuture(error(outcome.cause().getMessage(), null));
      }
      QueryResult result = outcome.result();
      JsonObject spec;
      try {
        spec = ChartSpec.validate(args, result);
      } catch (IllegalArgumentException e) {
        return Future.succeededFuture(error(e.getMessage(), null));
      }
      events.phase("executing");
      return datasets.chart(userId, result.id(), spec, stopKey).transform(drawn -> drawn.succeeded()
          ? Future.succeededFuture(rendered(result, drawn.result()))
          : Future.succeededFuture(error(Failure.messageOf(drawn.cause()), null)));
    });
  }

  private JsonObject rendered(QueryResult result, ChartData data) {
    record.charts.add(new JsonObject().put("result_id", result.id()).put("spec", data.spec())
        .put("data", data.toJson()));
    events.emit(chart(conversationId, result.id(), data));
    JsonObject response = new JsonObject().put("status", "rendered").put("spec", data.spec())
        .put("shows", data.shows());
    return data.rows().size() < result.totalRows() ? response.put("hint", "The chart shows " + data.shows()
        + ". Say so when you describe it. To chart other groups or another aggregate, set aggregate, or aggregate in"
        + " SQL (GROUP BY) and chart that result") : response;
  }

  private Future<JsonObject> renderTable(JsonObject args) {
    return result(args).transform(outcome -> {
      if (outcome.failed()) {
        return Future.succeededFuture(error(outcome.cause().getMessage(), null));
      }
      try {
        JsonArray columns = ChartSpecs.tableColumns(args, outcome.result());
        String title = args.getString("title", "");
        record.charts.add(new JsonObject().put("kind", "table").put("result_id", outcome.result().id())
            .put("title", title).put("columns", columns));
        events.emit(table(conversationId, outcome.result().id(), title, columns));
        return Future.succeededFuture(new JsonObject().put("status", "rendered"));
      } catch (IllegalArgumentException e) {
        return Future.succeededFuture(error(e.getMessage(), null));
      }
    });
  }

  /** The stored result a call names, if it belongs to this conversation. */
  private Future<QueryResult> result(JsonObject args) {
    String id = args.getString("result_id", "");
    return storage.result(userId, id)
        .compose(r -> conversationId.equals(r.conversationId()) ? Future.succeededFuture(r) : Future.failedFuture("x"))
        .onSuccess(r -> record.results.putIfAbsent(r.id(), r))
        .recover(e -> Future.failedFuture(new IllegalArgumentException("No result '" + id
            + "' in this conversation; use a result_id returned by execute_sql")));
  }

  private static JsonObject error(String message, String type) {
    JsonObject error = new JsonObject().put("error", message);
    if (type != null) {
      error.put("error_type", type);
    }
    return error;
  }
}

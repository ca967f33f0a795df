package io.quarry.dataset;

import io.quarry.bus.Dataset;
import io.quarry.bus.Export;
import io.quarry.bus.Profile;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Sizes;
import io.quarry.bus.Source;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes a dataset's profile: its copy's footer statistics first (nulls, min and max with no scan, and each column's
 * compressed bytes), then scans of the columns, in order, while their bytes fit {@code maxBytes}, for what the footer
 * did not hold and for the distinct values. A column past the budget keeps what the footer said, and the profile's
 * note names it.
 */
final class ProfileScan {

  /** Characters of a min or max kept: the profile is read at a glance, the value itself by SQL. */
  static final int MAX_VALUE_CHARS = 200;

  /** A profile, each column's compressed bytes (what reading it costs), and whether it read the version recorded. */
  record Computed(Profile profile, Map<String, Long> bytes, boolean current) {
  }

  private final QueryRunner queries;
  private final long maxBytes;

  ProfileScan(QueryRunner queries, long maxBytes) {
    this.queries = queries;
    this.maxBytes = maxBytes;
  }

  /** One column as the footer gave it, and what it weighs. */
  private record Known(String name, String type, Long nulls, String min, String max, long bytes) {

    boolean whole() {
      return nulls != null && min != null && max != null;
    }
  }

  Future<Computed> compute(String userId, String conversationId, Dataset dataset, String stopKey) {
    String table = dataset.name();
    return queries.statistics(userId, conversationId, table, ProfileSql.footerOnly(table), stopKey)
        .compose(statistics -> {
          List<Known> known = known(statistics, dataset);
          List<Known> scanned = withinBudget(known);
          return scans(userId, conversationId, table, scanned, stopKey, 0, new LinkedHashMap<>())
              .map(figures -> computed(dataset, statistics, known, scanned, figures));
        });
  }

  /**
   * The footer's figures. A column whose weight the footer did not give (DuckDB could not decode its statistics)
   * weighs an equal share of the file.
   */
  private List<Known> known(QueryResult statistics, Dataset dataset) {
    JsonArray rows = statistics.rowValues();
    long share = dataset.fileSize() == null ? 0 : dataset.fileSize() / Math.max(1, rows.size());
    List<Known> known = new ArrayList<>();
    for (Object item : rows) {
      JsonArray row = (JsonArray) item;
      known.add(new Known(row.getString(0), row.getString(1), row.getLong(2), row.getString(3), row.getString(4),
          row.getLong(5) == null ? share : row.getLong(5)));
    }
    return known;
  }

  /** The columns scanned: from the first, while their bytes add up to no more than the budget. */
  private List<Known> withinBudget(List<Known> known) {
    List<Known> scanned = new ArrayList<>();
    long total = 0;
    for (Known column : known) {
      if (total + column.bytes() > maxBytes) {
        break;
      }
      total += column.bytes();
      scanned.add(column);
    }
    return scanned;
  }

  /** Scans the columns {@link ProfileSql#COLUMNS_PER_SCAN} at a time, in turn; each column's four figures by name. */
  private Future<Map<String, JsonArray>> scans(String userId, String conversationId, String table, List<Known> columns,
      String stopKey, int from, Map<String, JsonArray> figures) {
    if (from >= columns.size()) {
      return Future.succeededFuture(figures);
    }
    List<Known> batch = columns.subList(from, Math.min(columns.size(), from + ProfileSql.COLUMNS_PER_SCAN));
    String sql = ProfileSql.scan(table, batch.stream().map(Known::name).toList(),
        batch.stream().map(Known::whole).toList());
    return queries.unstored(userId, conversationId, sql, stopKey).compose(result -> {
      JsonArray row = result.rowValues().getJsonArray(0);
      for (int i = 0; i < batch.size(); i++) {
        figures.put(batch.get(i).name(), new JsonArray(row.getList().subList(i * 4, i * 4 + 4)));
      }
      return scans(userId, conversationId, table, columns, stopKey, from + batch.size(), figures);
    });
  }

  private Computed computed(Dataset dataset, QueryResult statistics, List<Known> known, List<Known> scanned,
      Map<String, JsonArray> figures) {
    long rows = dataset.rowCount() == null ? 0 : dataset.rowCount();
    List<Profile.Column> columns = new ArrayList<>();
    Map<String, Long> bytes = new LinkedHashMap<>();
    for (Known column : known) {
      bytes.put(column.name(), column.bytes());
      JsonArray scan = figures.get(column.name());
      Long distinct = scan == null ? null : scan.getLong(3);
      if (column.whole()) {
        columns.add(new Profile.Column(column.name(), column.type(), column.nulls(), cut(column.min()),
            cut(column.max()), distinct, true));
      } else if (scan != null) {
        columns.add(new Profile.Column(column.name(), column.type(), rows - scan.getLong(0), cut(scan.getString(1)),
            cut(scan.getString(2)), distinct, false));
      } else {
        columns.add(new Profile.Column(column.name(), column.type(), column.nulls(), cut(column.min()),
            cut(column.max()), null, false));
      }
    }
    Source recorded = new Source(dataset.name(), dataset.url(), dataset.etag(), null, dataset.fileSize());
    boolean current = !Export.changed(List.of(recorded), statistics.sourceList());
    return new Computed(new Profile(rows, columns, null, note(known, scanned)), bytes, current);
  }

  /** Says which columns the budget left unscanned, and why. */
  private String note(List<Known> known, List<Known> scanned) {
    if (scanned.size() == known.size()) {
      return null;
    }
    List<Known> left = known.subList(scanned.size(), known.size());
    long bytes = left.stream().mapToLong(Known::bytes).sum();
    List<String> names = left.stream().limit(10).map(Known::name).toList();
    return "Distinct values of " + left.size() + (left.size() == 1 ? " column" : " columns") + " (" + String.join(", ",
        names) + (left.size() > names.size() ? ", …" : "") + ") were not computed: scanning " + (left.size() == 1
        ? "it" : "them") + " would read " + Sizes.human(bytes) + " more, past the profile's budget of "
        + Sizes.human(maxBytes) + " (dataset.profileMaxBytes); what the footer says of them is shown";
  }

  static String cut(String value) {
    return value == null || value.length() <= MAX_VALUE_CHARS ? value : value.substring(0, MAX_VALUE_CHARS) + "…";
  }
}

package io.quarry.storage;

import io.quarry.bus.Dataset;
import io.quarry.bus.Failure;
import io.quarry.bus.Fields;
import io.quarry.bus.Keys;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Scopes.DatasetRef;
import io.quarry.bus.StorageOps.ClaimDataset;
import io.quarry.bus.StorageOps.ListDatasets;
import io.quarry.bus.StorageOps.RenameDataset;
import io.quarry.bus.StorageOps.UpdateDataset;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Datasets of a conversation. Claiming a slot is one transaction, so that two concurrent adds can
 * neither exceed the limit, load one URL twice, nor take the same name.
 */
final class DatasetStore {

  static final String NOT_FOUND = "Dataset not found";
  private static final Pattern DEFAULT_NAME = Pattern.compile("table(\\d{1,9})", Pattern.CASE_INSENSITIVE);
  private static final String COLUMNS = "d.id, d.conversation_id, d.url, d.name, d.row_count, d.column_count,"
      + " d.schema_json, d.status, d.error_message, d.file_size, d.etag, d.created_at, d.updated_at, d.format";
  private static final String OWNED = " FROM datasets d JOIN conversations c ON c.id = d.conversation_id"
      + " WHERE c.user_id = ? AND d.conversation_id = ?";

  private final Db db;
  private final DatasetLists lists;
  private final Quotas quotas;

  DatasetStore(Db db, DatasetLists lists, Quotas quotas) {
    this.db = db;
    this.lists = lists;
    this.quotas = quotas;
  }

  /** A second delivery of the same claim (the dataset id its caller chose) answers the dataset it claimed. */
  Future<Dataset> claim(ClaimDataset claim) {
    String userId = claim.userId();
    String conversationId = claim.conversationId();
    String id = Db.idOr(claim.datasetId());
    return lists.write(conversationId, () -> db.tx(conn -> ConversationStore.lockOwned(db, conn, userId, conversationId)
        .compose(v -> db.run(conn, "SELECT " + COLUMNS + OWNED + " AND d.id = ?", userId, conversationId, id))
        .compose(made -> made.size() > 0 ? Future.succeededFuture(dataset(made.iterator().next()))
            : claimNew(conn, claim, id))));
  }

  /**
   * Only datasets that loaded (ready, or in error after a refresh) or are loading hold a slot and a URL. A row
   * that never loaded (an add whose deletion did not happen, or one a dead server left) costs nothing: it holds
   * no slot, and a new add of its URL replaces it. Its name is still avoided, since names are unique.
   */
  private Future<Dataset> claimNew(SqlClient conn, ClaimDataset claim, String id) {
    String conversationId = claim.conversationId();
    String url = claim.url();
    int max = claim.maxDatasets();
    return db.run(conn, "SELECT id, url, name, status, row_count FROM datasets WHERE conversation_id = ?",
            conversationId)
        .compose(rows -> {
          int holding = 0;
          String replaced = null;
          int highest = 0;
          for (Row row : rows) {
            boolean neverLoaded = Dataset.ERROR.equals(row.getString("status")) && row.getValue("row_count") == null;
            boolean sameUrl = url.equals(row.getString("url"));
            if (sameUrl && !neverLoaded) {
              return Future.failedFuture(QuarryException.conflict("This dataset is already loaded"));
            }
            if (sameUrl) {
              replaced = row.getString("id");
              continue;
            }
            holding += neverLoaded ? 0 : 1;
            Matcher m = DEFAULT_NAME.matcher(row.getString("name"));
            highest = m.matches() ? Math.max(highest, Integer.parseInt(m.group(1))) : highest;
          }
          if (holding >= max) {
            return Future.failedFuture(QuarryException.conflict("Maximum " + max + " datasets reached"));
          }
          String name = "table" + (highest + 1);
          return (replaced == null ? Future.<Object>succeededFuture()
              : db.run(conn, "DELETE FROM datasets WHERE id = ?", replaced).mapEmpty())
              .compose(v -> insert(conn, id, conversationId, url, name));
        });
  }

  private Future<Dataset> insert(SqlClient conn, String id, String conversationId, String url, String name) {
    String now = Timestamps.now();
    Dataset d = new Dataset(id, conversationId, url, name, null, null, new JsonArray(), Dataset.LOADING, null,
        null, null, now, now);
    return db.run(conn, "INSERT INTO datasets (id, conversation_id, url, name, status, created_at, updated_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?)", d.id(), conversationId, url, name, d.status(), now, now)
        .map(v -> d);
  }

  /** Run for every query: answered from memory while nothing changed (see {@link DatasetLists}). */
  Future<List<Dataset>> list(ListDatasets request) {
    String userId = request.userId();
    String conversationId = request.conversationId();
    Future<Void> room = request.forQuery() ? quotas.roomForResults(userId) : Future.succeededFuture();
    return room.compose(v -> lists.list(userId, conversationId, () -> read(userId, conversationId)));
  }

  /**
   * One statement: the conversation's row comes back even when it has no datasets, so checking that it
   * is the user's costs no round trip of its own.
   */
  private Future<List<Dataset>> read(String userId, String conversationId) {
    return db.run("SELECT " + COLUMNS + " FROM conversations c LEFT JOIN datasets d ON d.conversation_id = c.id"
            + " WHERE c.id = ? AND c.user_id = ? ORDER BY d.created_at, d.rowid", conversationId, userId)
        .map(rows -> {
          if (rows.size() == 0) {
            throw QuarryException.notFound(ConversationStore.NOT_FOUND);
          }
          List<Dataset> items = new ArrayList<>();
          rows.forEach(row -> {
            if (row.getString("id") != null) {
              items.add(dataset(row));
            }
          });
          return List.copyOf(items);
        });
  }

  Future<Dataset> get(DatasetRef ref) {
    return get(db.pool(), ref.userId(), ref.conversationId(), ref.datasetId());
  }

  private Future<Dataset> get(SqlClient client, String userId, String conversationId, String datasetId) {
    return db.one(client, NOT_FOUND, "SELECT " + COLUMNS + OWNED + " AND d.id = ?", userId, conversationId, datasetId)
        .map(DatasetStore::dataset);
  }

  Future<Dataset> update(UpdateDataset update) {
    String userId = update.userId();
    Dataset d = update.dataset();
    return lists.write(d.conversationId(), () -> Db.changed(db.run("UPDATE datasets SET url = ?,"
                + " row_count = ?, column_count = ?, schema_json = ?, status = ?, error_message = ?, file_size = ?, etag = ?,"
                + " format = ?, updated_at = ? WHERE id = ? AND conversation_id IN (SELECT id FROM conversations WHERE user_id = ?"
                + " AND id = ?)",
            d.url(), d.rowCount(), d.columnCount(), Db.text(d.schema()), d.status(), d.errorMessage(), d.fileSize(), d.etag(),
            d.format(), Timestamps.now(), d.id(), userId, d.conversationId()), NOT_FOUND))
        .compose(v -> get(db.pool(), userId, d.conversationId(), d.id()));
  }

  Future<Dataset> rename(RenameDataset rename) {
    String userId = rename.userId();
    String conversationId = rename.conversationId();
    String datasetId = rename.datasetId();
    String name = Fields.text(Keys.NAME, rename.name());
    return lists.write(conversationId, () -> db.tx(conn -> locked(conn, userId, conversationId, datasetId)
        .compose(d -> db.exists(conn, "SELECT 1 FROM datasets WHERE conversation_id = ? AND name = ? AND id <> ?",
            conversationId, name, datasetId))
        .compose(taken -> taken
            ? Future.failedFuture(QuarryException.conflict("A dataset named '" + name + "' already exists in this conversation"))
            : db.run(conn, "UPDATE datasets SET name = ?, updated_at = ? WHERE id = ?", name, Timestamps.now(), datasetId))
        .compose(v -> get(conn, userId, conversationId, datasetId))));
  }

  Future<Dataset> delete(DatasetRef ref) {
    String userId = ref.userId();
    String conversationId = ref.conversationId();
    String datasetId = ref.datasetId();
    return lists.write(conversationId, () -> db.tx(conn -> locked(conn, userId, conversationId, datasetId)
        .compose(d -> db.run(conn, "DELETE FROM datasets WHERE id = ?", datasetId).map(v -> d))));
  }

  /** The dataset, its conversation locked for the rest of the transaction (see {@link ConversationStore#lockOwned}). */
  private Future<Dataset> locked(SqlClient conn, String userId, String conversationId, String datasetId) {
    return ConversationStore.lockOwned(db, conn, userId, conversationId)
        .recover(e -> Future.failedFuture(Failure.classify(e) == Failure.NOT_FOUND ? QuarryException.notFound(NOT_FOUND) : e))
        .compose(v -> get(conn, userId, conversationId, datasetId));
  }

  private static Dataset dataset(Row row) {
    return new Dataset(row.getString("id"), row.getString("conversation_id"), row.getString("url"),
        row.getString("name"), row.getLong("row_count"), row.getInteger("column_count"), Db.array(row, "schema_json"),
        row.getString("status"), row.getString("error_message"), row.getLong("file_size"), row.getString("etag"),
        row.getString("created_at"), row.getString("updated_at"), row.getString("format"));
  }
}

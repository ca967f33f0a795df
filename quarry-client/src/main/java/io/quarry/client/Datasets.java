package io.quarry.client;

import io.quarry.bus.ApiOps;
import io.quarry.bus.Bus;
import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetOps.AddDataset;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.DatasetRef;
import io.quarry.bus.StorageOps.RenameDataset;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;

/** A conversation's Parquet files, each a table its queries and questions read by name. */
public final class Datasets {

  private final Bus bus;

  /** @param vertx joined to the cluster ({@link QuarryBus#join}) */
  public Datasets(Vertx vertx) {
    this.bus = new Bus(vertx);
  }

  /** Validates the file (its footer and schema) and adds it, named {@code table1}, {@code table2}, ... */
  public Future<Dataset> add(String userId, String conversationId, String url) {
    return ApiOps.DATASET_ADD.call(bus, new AddDataset(userId, conversationId, url));
  }

  public Future<List<Dataset>> list(String userId, String conversationId) {
    return ApiOps.DATASET_LIST.call(bus, new ConversationRef(userId, conversationId));
  }

  /** {@code name}: a SQL identifier no other dataset of the conversation has. */
  public Future<Dataset> rename(String userId, String conversationId, String datasetId, String name) {
    return ApiOps.DATASET_RENAME.call(bus, new RenameDataset(userId, conversationId, datasetId, name));
  }

  /** Reads the file's schema again (after it changed). */
  public Future<Dataset> refresh(String userId, String conversationId, String datasetId) {
    return ApiOps.DATASET_REFRESH.call(bus, new DatasetRef(userId, conversationId, datasetId));
  }

  public Future<Dataset> remove(String userId, String conversationId, String datasetId) {
    return ApiOps.DATASET_REMOVE.call(bus, new DatasetRef(userId, conversationId, datasetId));
  }
}

package io.quarry.dataset;

import static io.quarry.bus.ChatEvents.DATASET_ERROR;
import static io.quarry.bus.ChatEvents.DATASET_LOADED;
import static io.quarry.bus.ChatEvents.DATASET_LOADING;
import static io.quarry.bus.ChatEvents.DATASET_REMOVED;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetOps.AddDataset;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Scopes.DatasetRef;
import io.quarry.bus.StorageClient;
import io.quarry.bus.StorageOps.RenameDataset;
import io.quarry.bus.UrlSecrets;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import java.net.URI;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adding, refreshing, renaming and removing datasets. Every change of state is stored, then published
 * to the user's browsers as {@code dataset_loading}, {@code dataset_loaded}, {@code dataset_error} or
 * {@code dataset_removed}. A failed add is the exception: it keeps nothing (no slot of the limit, no name,
 * not its URL), and only its {@code dataset_error} says why it failed.
 */
final class DatasetCommands {

  private static final Logger log = LoggerFactory.getLogger(DatasetCommands.class);

  static final String INVALID_URL = "Invalid URL format";

  private final EventBus bus;
  private final StorageClient storage;
  private final Pipeline pipeline;
  private final int maxDatasets;

  DatasetCommands(EventBus bus, StorageClient storage, Pipeline pipeline, int maxDatasets) {
    this.bus = bus;
    this.storage = storage;
    this.pipeline = pipeline;
    this.maxDatasets = maxDatasets;
  }

  /**
   * Step 1 (format, and a signed link's own expiry) first, then the slot (duplicate, limit), then steps 2–5. A fresh
   * signed link to an object the conversation already has replaces that dataset's link instead (see {@link #renew}).
   */
  Future<Dataset> add(AddDataset request) {
    String userId = request.userId();
    String conversationId = request.conversationId();
    // The codec sealed it already; sealing again changes nothing, and a caller in this process may not have.
    String url = request.url() == null ? null : UrlSecrets.sealed(request.url());
    URI uri = OutboundHttp.parse(url).orElseThrow(() -> QuarryException.badRequest(INVALID_URL));
    if (UrlSecrets.expired(url, Instant.now())) {
      return Future.failedFuture(QuarryException.badRequest(UrlSecrets.EXPIRED));
    }
    return sameObject(userId, conversationId, url).compose(old -> old.isPresent()
        ? renew(userId, old.get(), url, uri)
        : claim(userId, conversationId, url).compose(claimed -> load(userId, claimed, uri, true)));
  }

  /** The conversation's dataset at another signed link to the object {@code url} names, if any. */
  private Future<Optional<Dataset>> sameObject(String userId, String conversationId, String url) {
    String object = UrlSecrets.object(url);
    if (object == null) {
      return Future.succeededFuture(Optional.empty());
    }
    return storage.datasets(userId, conversationId).map(all -> all.stream()
        .filter(d -> !d.url().equals(url) && object.equals(UrlSecrets.object(d.url()))).findFirst());
  }

  /**
   * A fresh link for an expired one: the same dataset (id, table name, history) at the new link, loaded again as a
   * refresh is, so it takes no new slot and no new name; a failure leaves it in error with the new link kept.
   */
  private Future<Dataset> renew(String userId, Dataset old, String url, URI uri) {
    log.info("Dataset {} of conversation {} takes a fresh link to the same object", old.id(), old.conversationId());
    return storage.updateDataset(userId, old.at(url)).compose(renewed -> load(userId, renewed, uri, false));
  }

  /**
   * Re-runs steps 2–5; the dataset shows as loading meanwhile, then ready or in error. One that never loaded
   * (an add a stopped server left in error) is added again instead, since it holds no slot.
   */
  Future<Dataset> refresh(DatasetRef ref) {
    String userId = ref.userId();
    String conversationId = ref.conversationId();
    return storage.dataset(userId, conversationId, ref.datasetId())
        .compose(found -> {
          URI uri = OutboundHttp.parse(found.url()).orElseThrow();
          return found.neverLoaded()
              ? claim(userId, conversationId, found.url()).compose(claimed -> load(userId, claimed, uri, true))
              : storage.updateDataset(userId, found.loading()).compose(loading -> load(userId, loading, uri, false));
        });
  }

  /** A slot and a name; a duplicate or a full conversation is the caller's mistake, a 400 with the seed's text. */
  private Future<Dataset> claim(String userId, String conversationId, String url) {
    return storage.claimDataset(userId, conversationId, url, maxDatasets)
        .recover(e -> Failure.classify(e) == Failure.CONFLICT
            ? Future.failedFuture(QuarryException.badRequest(Failure.messageOf(e)))
            : Future.failedFuture(e));
  }

  Future<Dataset> rename(RenameDataset rename) {
    String name = TableNames.check(rename.name());
    return storage.renameDataset(rename.userId(), rename.conversationId(), rename.datasetId(), name);
  }

  Future<Dataset> remove(DatasetRef ref) {
    return storage.deleteDataset(ref.userId(), ref.conversationId(), ref.datasetId())
        .onSuccess(removed -> ChatEvents.publish(bus, ref.userId(), ChatEvents.dataset(DATASET_REMOVED, removed)));
  }

  private Future<Dataset> load(String userId, Dataset dataset, URI uri, boolean adding) {
    ChatEvents.publish(bus, userId, ChatEvents.dataset(DATASET_LOADING, dataset));
    return pipeline.run(uri, dataset.conversationId()).transform(outcome -> {
          if (outcome.succeeded()) {
            return ready(userId, dataset, outcome.result());
          }
          return adding ? discard(userId, dataset, outcome.cause()) : failed(userId, dataset, outcome.cause());
        });
  }

  private Future<Dataset> ready(String userId, Dataset dataset, Pipeline.Loaded loaded) {
    Dataset ready = dataset.ready(loaded.rowCount(), loaded.columns(), loaded.size(), loaded.etag(),
        loaded.format());
    return storage.updateDataset(userId, ready)
        .onSuccess(stored -> ChatEvents.publish(bus, userId, ChatEvents.dataset(DATASET_LOADED, stored)));
  }

  private Future<Dataset> failed(String userId, Dataset dataset, Throwable cause) {
    String message = Failure.messageOf(cause);
    return storage.updateDataset(userId, dataset.failed(message))
        .onSuccess(stored -> ChatEvents.publish(bus, userId, ChatEvents.dataset(DATASET_ERROR, stored)
            .put("details", Failure.detailsOf(cause))))
        .transform(stored -> Future.failedFuture(cause));
  }

  /**
   * A failed add gives its slot, name and URL back at once. Should the deletion fail, the row left in error
   * costs nothing either: storage counts only datasets that loaded or are loading.
   */
  private Future<Dataset> discard(String userId, Dataset dataset, Throwable cause) {
    return storage.deleteDataset(userId, dataset.conversationId(), dataset.id())
        .onFailure(e -> log.warn("Could not delete failed dataset {} of conversation {}: {}", dataset.id(),
            dataset.conversationId(), Failure.messageOf(e)))
        .transform(deleted -> {
          ChatEvents.publish(bus, userId, ChatEvents.dataset(DATASET_ERROR, dataset.failed(Failure.messageOf(cause)))
              .put("details", Failure.detailsOf(cause)));
          return Future.failedFuture(cause);
        });
  }

}

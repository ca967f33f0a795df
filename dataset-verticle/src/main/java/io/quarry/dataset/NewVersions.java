package io.quarry.dataset;

import static io.quarry.bus.ChatEvents.DATASET_LOADED;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.Dataset;
import io.quarry.bus.Source;
import io.quarry.bus.StorageClient;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A query's worker revalidates every file it reads, so its result's sources say which version of a dataset is
 * current. When that is not the version its dataset records (the file changed since it was added or refreshed), the
 * dataset takes it, and its browsers hear so: the results that read the earlier version can then say the data has
 * changed since them. A new version may have other rows and columns: its footer's row count and the engine's schema
 * are read again (the add pipeline's steps 2–4, as Refresh does), so the card, the schema and the model's next prompt
 * describe the file as it is now.
 */
final class NewVersions {

  private static final Logger log = LoggerFactory.getLogger(NewVersions.class);

  private final StorageClient storage;
  private final EventBus bus;
  private final Pipeline pipeline;

  NewVersions(StorageClient storage, EventBus bus, Pipeline pipeline) {
    this.storage = storage;
    this.bus = bus;
    this.pipeline = pipeline;
  }

  /** The versions a query's worker read ({@code sources}), each seen for the dataset of its table and URL. */
  void note(String userId, List<Dataset> datasets, List<Source> sources) {
    for (Source source : sources) {
      datasets.stream()
          .filter(d -> d.name().equals(source.table()) && d.url().equals(source.url()))
          .findFirst()
          .ifPresent(d -> seen(userId, d, source.etag(), source.size()));
    }
  }

  /** A version of the dataset's file seen now: taken when it is another than the recorded one; true then. */
  Future<Boolean> seen(String userId, Dataset d, String etag, Long size) {
    return newer(d, etag, size) ? take(userId, d, size, etag).map(true) : Future.succeededFuture(false);
  }

  /** Records the new version, as the file describes itself now, and tells its browsers. */
  private Future<Dataset> take(String userId, Dataset d, Long size, String etag) {
    return reread(d, size, etag)
        .compose(now -> storage.updateDataset(userId, now))
        .onSuccess(updated -> ChatEvents.publish(bus, userId, ChatEvents.dataset(DATASET_LOADED, updated)))
        .onFailure(e -> log.debug("The new version of {} was not recorded: {}", d.name(), e.getMessage()));
  }

  /**
   * The dataset at its new version: rows, columns, size and version as the pipeline reads them now. Should that fail
   * (the server went away, the file is being rewritten), the version seen is still recorded with the rows and columns
   * known, so its results say the data changed; the next Refresh or new version reads them.
   */
  private Future<Dataset> reread(Dataset d, Long size, String etag) {
    return pipeline.run(OutboundHttp.parse(d.url()).orElseThrow(), d.conversationId())
        .map(loaded -> d.ready(loaded.rowCount(), loaded.columns(), loaded.size(),
            loaded.etag() == null ? etag : loaded.etag(), loaded.format()))
        .recover(e -> {
          log.debug("The new version of {} could not be read, only its version is recorded: {}", d.name(),
              e.getMessage());
          long known = size != null && size >= 0 ? size : d.fileSize() == null ? -1 : d.fileSize();
          return Future.succeededFuture(d.ready(d.rowCount() == null ? 0 : d.rowCount(), d.schema(), known,
              etag == null ? d.etag() : etag, d.dataFormat()));
        });
  }

  /** Whether a version seen now is another than the recorded one: by ETag when both have one, else by size. */
  private static boolean newer(Dataset recorded, String etag, Long size) {
    return etag != null && recorded.etag() != null ? !etag.equals(recorded.etag())
        : size != null && size >= 0 && !Objects.equals(size, recorded.fileSize());
  }
}

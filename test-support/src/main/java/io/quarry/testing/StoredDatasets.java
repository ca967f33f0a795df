package io.quarry.testing;

import io.quarry.bus.Dataset;
import io.quarry.bus.Fields;
import io.quarry.bus.Keys;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Scopes.DatasetRef;
import io.quarry.bus.StorageOps.ClaimDataset;
import io.quarry.bus.StorageOps.ListDatasets;
import io.quarry.bus.StorageOps.RenameDataset;
import io.quarry.bus.StorageOps.UpdateDataset;
import io.quarry.bus.Timestamps;
import io.vertx.core.json.JsonArray;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link FakeStorage}'s datasets: the answers of storage-verticle's {@code DatasetStore}, with its texts, in
 * memory. Touched on the fake's event loop only.
 */
final class StoredDatasets {

  /** storage-verticle's text; the contract has no constant for it. */
  static final String NOT_FOUND = "Dataset not found";
  private static final Pattern DEFAULT_NAME = Pattern.compile("table(\\d{1,9})", Pattern.CASE_INSENSITIVE);

  /** In the order they were added, as storage lists them. */
  private final Map<String, Dataset> datasets = new LinkedHashMap<>();
  private final BiPredicate<String, String> owns;

  /** @param owns whether a user (first) owns a conversation (second) */
  StoredDatasets(BiPredicate<String, String> owns) {
    this.owns = owns;
  }

  /** A dataset as a finished load leaves it; its size and etag mean nothing to a fake. */
  static Dataset ready(String conversationId, String url, String name, long rowCount, JsonArray schema) {
    String now = Timestamps.now();
    return new Dataset(UUID.randomUUID().toString(), conversationId, url, name, rowCount, schema.size(), schema,
        Dataset.READY, null, null, null, now, now);
  }

  static Dataset renamed(Dataset d, String name) {
    return new Dataset(d.id(), d.conversationId(), d.url(), name, d.rowCount(), d.columnCount(), d.schema(),
        d.status(), d.errorMessage(), d.fileSize(), d.etag(), d.createdAt(), Timestamps.now(), d.format());
  }

  Dataset add(Dataset dataset) {
    datasets.put(dataset.id(), dataset);
    return dataset;
  }

  List<Dataset> of(String conversationId) {
    return datasets.values().stream().filter(d -> d.conversationId().equals(conversationId)).toList();
  }

  /** As storage: only datasets that loaded or are loading hold a slot; a new add of a failed add's URL replaces it. */
  Dataset claim(ClaimDataset claim) {
    String conversationId = owned(claim.userId(), claim.conversationId());
    String url = claim.url();
    int max = claim.maxDatasets();
    List<Dataset> present = of(conversationId);
    if (present.stream().anyMatch(d -> d.url().equals(url) && !d.neverLoaded())) {
      throw QuarryException.conflict("This dataset is already loaded");
    }
    List<Dataset> others = present.stream().filter(d -> !d.url().equals(url)).toList();
    if (others.stream().filter(d -> !d.neverLoaded()).count() >= max) {
      throw QuarryException.conflict("Maximum " + max + " datasets reached");
    }
    present.stream().filter(d -> d.url().equals(url)).forEach(d -> datasets.remove(d.id()));
    int highest = 0;
    for (Dataset d : others) {
      Matcher m = DEFAULT_NAME.matcher(d.name());
      highest = m.matches() ? Math.max(highest, Integer.parseInt(m.group(1))) : highest;
    }
    String now = Timestamps.now();
    return add(new Dataset(UUID.randomUUID().toString(), conversationId, url, "table" + (highest + 1), null, null,
        new JsonArray(), Dataset.LOADING, null, null, null, now, now));
  }

  /** The quota a {@code for_query} list checks is not kept: {@code failNext} refuses such a list instead. */
  List<Dataset> list(ListDatasets list) {
    return of(owned(list.userId(), list.conversationId()));
  }

  Dataset get(DatasetRef ref) {
    return find(ref);
  }

  /** Stores what a load learned; the dataset's url, name and creation stay as they were. */
  Dataset update(UpdateDataset update) {
    Dataset d = update.dataset();
    Dataset s = find(update.userId(), d.conversationId(), d.id());
    return add(new Dataset(s.id(), s.conversationId(), s.url(), s.name(), d.rowCount(), d.columnCount(), d.schema(),
        d.status(), d.errorMessage(), d.fileSize(), d.etag(), s.createdAt(), Timestamps.now()));
  }

  Dataset rename(RenameDataset rename) {
    Dataset d = find(rename.ref());
    String name = Fields.text(Keys.NAME, rename.name());
    if (of(d.conversationId()).stream().anyMatch(other -> other.name().equals(name) && !other.id().equals(d.id()))) {
      throw QuarryException.conflict("A dataset named '" + name + "' already exists in this conversation");
    }
    return add(renamed(d, name));
  }

  Dataset delete(DatasetRef ref) {
    return datasets.remove(find(ref).id());
  }

  private String owned(String userId, String conversationId) {
    if (!owns.test(userId, conversationId)) {
      throw QuarryException.notFound(FakeStorage.CONVERSATION_NOT_FOUND);
    }
    return conversationId;
  }

  private Dataset find(DatasetRef ref) {
    return find(ref.userId(), ref.conversationId(), ref.datasetId());
  }

  /** Another user's dataset, or one of another conversation, is simply not found. */
  private Dataset find(String userId, String conversationId, String datasetId) {
    Dataset d = datasets.get(datasetId);
    if (d == null || !d.conversationId().equals(conversationId) || !owns.test(userId, conversationId)) {
      throw QuarryException.notFound(NOT_FOUND);
    }
    return d;
  }
}

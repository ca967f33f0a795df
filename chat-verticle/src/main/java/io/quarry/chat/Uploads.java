package io.quarry.chat;

import io.quarry.bus.Dataset;
import io.quarry.bus.Failure;
import io.quarry.bus.PrivateFiles;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files users upload, kept by the node that received them under {@code <dataDir>/uploads/<user>/<conversation>/
 * <upload>/<name>} (directories 0700, files 0600), and served by it to workers at a URL like any dataset's, so that
 * the fetch path, its ranges, cache and revalidation are the same for an upload as for a link, and every worker of a
 * cluster can read it while this node runs. A restart loses nothing: the files and the key that signs their URLs
 * ({@code upload.key}, 0600) stay in the data directory. The URL carries its signature as a query parameter
 * ({@code sig}, an HMAC of its path under that key), a credential Quarry seals on the bus and in storage and shows
 * nowhere (see {@code UrlSecrets}), so only the dataset that names it can have the file read.
 */
final class Uploads {

  private static final Logger log = LoggerFactory.getLogger(Uploads.class);
  static final String PREFIX = "/uploads/";
  /** Ids as this server makes them: no separator, no dot segment can hide in one. */
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private final Vertx vertx;
  private final ChatSettings.UploadSettings settings;
  private final Supplier<String> baseUrl;
  /** Uploads being received or added on this node: the sweep leaves them alone. */
  private final Set<Path> active = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private SecretKeySpec key;

  Uploads(Vertx vertx, ChatSettings.UploadSettings settings, Supplier<String> baseUrl) {
    this.vertx = vertx;
    this.settings = settings;
    this.baseUrl = baseUrl;
  }

  ChatSettings.UploadSettings settings() {
    return settings;
  }

  /** The folder (0700) and the signing key, made at the first start and kept. Blocks: run off the event loop. */
  Void open() throws IOException {
    PrivateFiles.directory(settings.dir().getParent());
    PrivateFiles.directory(settings.dir());
    Path keyFile = settings.dir().getParent().resolve("upload.key");
    if (!Files.exists(keyFile)) {
      byte[] fresh = new byte[32];
      new SecureRandom().nextBytes(fresh);
      Path part = PrivateFiles.newFile(settings.dir().getParent().resolve("upload.key.part"));
      Files.write(part, fresh);
      Files.move(part, keyFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
    key = new SecretKeySpec(Files.readAllBytes(keyFile), "HmacSHA256");
    return null;
  }

  static boolean validId(String id) {
    return id != null && ID.matcher(id).matches();
  }

  /** A new upload's folder, not made yet, counted as active until {@link #settled}. */
  Path begin(String userId, String conversationId) {
    Path dir = settings.dir().resolve(userId).resolve(conversationId).resolve(UUID.randomUUID().toString());
    active.add(dir);
    return dir;
  }

  void settled(Path upload) {
    active.remove(upload);
  }

  /** The URL a dataset reads {@code file} at, signed. */
  String url(Path file) {
    String path = PREFIX + settings.dir().relativize(file.getParent()).toString().replace('\\', '/') + "/"
        + URLEncoder.encode(file.getFileName().toString(), StandardCharsets.UTF_8).replace("+", "%20");
    String base = baseUrl.get();
    return base.substring(0, base.length() - PREFIX.length()) + path + "?sig=" + sign(path);
  }

  /** Whether {@code sig} signs {@code path} (the request's path as sent, percent-encoded). */
  boolean signed(String path, String sig) {
    return sig != null && MessageDigest.isEqual(sign(path).getBytes(StandardCharsets.US_ASCII),
        sig.getBytes(StandardCharsets.US_ASCII));
  }

  private String sign(String path) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(path.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Bytes {@code userId}'s uploads hold on this node. */
  Future<Long> held(String userId) {
    return vertx.executeBlocking(() -> bytesUnder(settings.dir().resolve(userId)), false);
  }

  private static long bytesUnder(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 0L;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
    }
  }

  /** Deletes an upload's folder, and its conversation's and user's when they are left empty. */
  Future<Void> delete(Path upload) {
    return vertx.executeBlocking(() -> {
      PrivateFiles.deleteTree(upload);
      deleteIfEmpty(upload.getParent());
      deleteIfEmpty(upload.getParent().getParent());
      return null;
    }, false);
  }

  /** After a conversation was deleted: every upload of it on this node goes. */
  Future<Void> conversationDeleted(String userId, String conversationId) {
    if (!validId(userId) || !validId(conversationId)) {
      return Future.succeededFuture();
    }
    Path conversation = settings.dir().resolve(userId).resolve(conversationId);
    return vertx.<Void>executeBlocking(() -> {
      PrivateFiles.deleteTree(conversation);
      deleteIfEmpty(conversation.getParent());
      return null;
    }, false).recover(e -> {
      log.warn("The uploads of a deleted conversation were not deleted: {}", e.toString());
      return Future.succeededFuture();
    });
  }

  /** After datasets changed: the conversation's uploads no dataset reads any more go (on this node). */
  Future<Void> sweep(StorageClient storage, String userId, String conversationId) {
    Path conversation = settings.dir().resolve(userId).resolve(conversationId);
    return storage.datasets(userId, conversationId)
        .map(datasets -> datasets.stream().map(Dataset::url).toList())
        .recover(e -> Failure.classify(e) == Failure.NOT_FOUND ? Future.succeededFuture(List.<String>of())
            : Future.failedFuture(e))
        .compose(urls -> vertx.executeBlocking(() -> unread(conversation, urls), false))
        .compose(unread -> Future.all(unread.stream().map(this::delete).toList()).<Void>mapEmpty())
        .recover(e -> {
          log.warn("Uploads of conversation {} were not swept: {}", conversationId, e.toString());
          return Future.succeededFuture();
        });
  }

  /** Every conversation with uploads on this node, swept (see {@link #sweep}): what other nodes' deletes left. */
  Future<Void> sweepAll(StorageClient storage) {
    return vertx.executeBlocking(() -> conversations(), false)
        .compose(all -> Future.all(all.stream().map(c -> sweep(storage, c.getParent().getFileName().toString(),
            c.getFileName().toString())).toList()).<Void>mapEmpty());
  }

  private List<Path> conversations() throws IOException {
    try (Stream<Path> users = Files.list(settings.dir())) {
      return users.filter(Files::isDirectory).flatMap(user -> {
        try (Stream<Path> conversations = Files.list(user)) {
          return conversations.filter(Files::isDirectory).toList().stream();
        } catch (IOException e) {
          return Stream.empty();
        }
      }).toList();
    }
  }

  /** The conversation's upload folders that no dataset's URL names and no request on this node is receiving. */
  private List<Path> unread(Path conversation, List<String> urls) throws IOException {
    if (!Files.isDirectory(conversation)) {
      return List.of();
    }
    try (Stream<Path> uploads = Files.list(conversation)) {
      return uploads.filter(upload -> !active.contains(upload))
          .filter(upload -> urls.stream().noneMatch(url -> url.contains(PREFIX
              + settings.dir().relativize(upload).toString().replace('\\', '/') + "/")))
          .toList();
    }
  }

  private static void deleteIfEmpty(Path dir) {
    try {
      Files.deleteIfExists(dir);
    } catch (IOException notEmpty) {
      // Other uploads are still in it.
    }
  }
}

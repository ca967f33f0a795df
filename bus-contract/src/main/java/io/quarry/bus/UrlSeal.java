package io.quarry.bus;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals the secret values of dataset URLs (see {@link UrlSecrets}) with AES-256-GCM, so the bus and storage carry
 * {@code qs1.<base64url>} instead. The key comes from a secret the node keeps in its data directory (made at its first
 * start, 0600) and hands its worker processes on their standard input with the rest of its private cluster's key, so
 * a link stored before a restart still opens after it; one sealed under another key (a data directory's key deleted)
 * cannot, and its user is asked for a fresh link. A configured cluster's members share no secret (their
 * bus runs TLS between certificates instead): there values are not sealed ({@link #noSharedKey(Vertx)}), the bus's TLS
 * protects them in flight, storage keeps them in clear, and {@link UrlSecrets#shownIn} redacts them by name.
 *
 * <p>The nonce is derived from the value (HMAC-SHA256 under a second key, as in SIV): the same link seals to the same
 * text, so storage still knows a link added twice. That reveals only that two sealed values are equal.
 */
public final class UrlSeal {

  static final String PREFIX = "qs1.";
  private static final int NONCE = 12;
  private static final int TAG_BITS = 128;

  /** A sealed value this process cannot open: sealed under another node's key, or altered. */
  public static final class Unsealable extends RuntimeException {
    Unsealable() {
      super(UrlSecrets.EXPIRED, null, false, false);
    }
  }

  private record Keys(SecretKeySpec cipher, SecretKeySpec nonce) {
  }

  /** No key shared with the rest of the cluster: values pass unsealed. */
  private static final Keys NONE = new Keys(null, null);
  /**
   * Each node's key, by its Vert.x: tests run several nodes in one JVM, each with worker processes that know only its
   * key. Code on a node's threads uses the node's; code on no Vert.x thread (a unit test) the process's own.
   */
  private static final Map<Vertx, Keys> BY_NODE = Collections.synchronizedMap(new WeakHashMap<>());
  private static volatile Keys own = derive(BusSecret.random());

  private UrlSeal() {
  }

  /** From now on {@code vertx}'s threads seal and open under the key of {@code sharedSecret} (the node's url key). */
  public static void useSecret(Vertx vertx, String sharedSecret) {
    Keys keys = derive(sharedSecret);
    BY_NODE.put(vertx, keys);
    // Threads of no Vert.x (an engine's own) use the last node's: a process runs one node but in tests.
    own = keys;
  }

  /** A member of a configured cluster: no key is shared, so nothing is sealed (see the class comment). */
  public static void noSharedKey(Vertx vertx) {
    BY_NODE.put(vertx, NONE);
    own = NONE;
  }

  /** For unit tests: the key of code on no node's threads. */
  static void useSecret(String sharedSecret) {
    own = sharedSecret == null ? NONE : derive(sharedSecret);
  }

  private static Keys keys() {
    Context context = Vertx.currentContext();
    Keys node = context == null ? null : BY_NODE.get(context.owner());
    return node != null ? node : own;
  }

  static boolean sealing() {
    return keys() != NONE;
  }

  static String seal(String value) {
    Keys k = keys();
    if (k == NONE) {
      return value;
    }
    try {
      byte[] plain = value.getBytes(StandardCharsets.UTF_8);
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(k.nonce());
      byte[] nonce = Arrays.copyOf(mac.doFinal(plain), NONCE);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, k.cipher(), new GCMParameterSpec(TAG_BITS, nonce));
      byte[] sealed = cipher.doFinal(plain);
      byte[] out = ByteBuffer.allocate(NONCE + sealed.length).put(nonce).put(sealed).array();
      return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(out);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is not available", e);
    }
  }

  static String open(String sealed) {
    try {
      byte[] in = Base64.getUrlDecoder().decode(sealed.substring(PREFIX.length()));
      if (in.length < NONCE + TAG_BITS / 8) {
        throw new Unsealable();
      }
      Keys k = keys();
      if (k == NONE) {
        throw new Unsealable();
      }
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, k.cipher(), new GCMParameterSpec(TAG_BITS, in, 0, NONCE));
      return new String(cipher.doFinal(in, NONCE, in.length - NONCE), StandardCharsets.UTF_8);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new Unsealable();
    }
  }

  private static Keys derive(String secret) {
    return new Keys(new SecretKeySpec(hash("quarry url seal cipher\0" + secret), "AES"),
        new SecretKeySpec(hash("quarry url seal nonce\0" + secret), "HmacSHA256"));
  }

  private static byte[] hash(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}

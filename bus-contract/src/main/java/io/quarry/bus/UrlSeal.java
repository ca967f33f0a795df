package io.quarry.bus;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals the secret values of dataset URLs (see {@link UrlSecrets}) with AES-256-GCM, so the bus and storage carry
 * {@code qs1.<base64url>} instead. The key comes from the bus secret every process of a cluster shares (the node hands
 * it to its worker processes on their standard input); a node without one makes its own at start. Either way it lives
 * as long as the node: a link sealed before a restart no longer opens, and its user is asked for a fresh one, which
 * a signed link (minutes to days old) would soon need anyway.
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

  private static volatile Keys keys = derive(BusSecret.random());

  private UrlSeal() {
  }

  /** From now on this process seals and opens under the key of {@code sharedSecret} (a cluster's bus secret). */
  public static void useSecret(String sharedSecret) {
    keys = derive(sharedSecret);
  }

  static String seal(String value) {
    try {
      Keys k = keys;
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
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, keys.cipher(), new GCMParameterSpec(TAG_BITS, in, 0, NONCE));
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

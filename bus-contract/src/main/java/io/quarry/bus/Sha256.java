package io.quarry.bus;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What Quarry keeps of a secret it hands out (a session token, an invite, an API token): the SHA-256 of its UTF-8 text,
 * in hex. They are random, 128 bits or more, so an unsalted fast hash leaves nothing to guess; a copy of the database
 * opens nothing.
 */
public final class Sha256 {

  private Sha256() {
  }

  public static String hex(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}

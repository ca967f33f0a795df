package io.quarry.chat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * Argon2id hashes in the PHC string format ({@code $argon2id$v=19$m=…,t=…,p=…$salt$hash}, unpadded Base64), which is
 * what accounts have stored since the first release: a stored hash is checked with the parameters it names. The
 * arithmetic is Bouncy Castle's, which took 64 ms a hash where password4j's took 89 ms (a node's JVM, the same
 * parameters), and 101 ms against 186 under C1 alone ({@code bench/run.sh passwords}).
 */
final class Argon2id {

  private static final Pattern PHC = Pattern.compile(
      "\\$argon2id\\$v=19\\$m=(\\d{1,7}),t=(\\d{1,3}),p=(\\d{1,2})\\$([A-Za-z0-9+/]{11,88})\\$([A-Za-z0-9+/]{22,88})");
  private static final Base64.Encoder ENCODER = Base64.getEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getDecoder();
  private static final int SALT_BYTES = 16;
  private static final int HASH_BYTES = 32;
  /**
   * The most a stored hash may ask of a check: 64 MiB and 10 passes (RFC 9106's second recommended choice is 64 MiB, 3
   * passes). Quarry writes 19 MiB and 2; the password pool is sized for that, and a row naming gigabytes (the format
   * allows 7 digits of KiB) would end a node run with ExitOnOutOfMemoryError at its next sign-in.
   */
  static final int MAX_MEMORY_KIB = 64 << 10;
  static final int MAX_PASSES = 10;

  private final int memoryKib;
  private final int passes;
  private final int lanes;
  private final SecureRandom random = new SecureRandom();

  Argon2id(int memoryKib, int passes, int lanes) {
    this.memoryKib = memoryKib;
    this.passes = passes;
    this.lanes = lanes;
  }

  /** A new hash of {@code password} with a random salt, as a PHC string. */
  String hash(String password) {
    byte[] salt = new byte[SALT_BYTES];
    random.nextBytes(salt);
    byte[] hash = compute(password, salt, memoryKib, passes, lanes, HASH_BYTES);
    return "$argon2id$v=19$m=" + memoryKib + ",t=" + passes + ",p=" + lanes + "$" + ENCODER.encodeToString(salt) + "$"
        + ENCODER.encodeToString(hash);
  }

  /**
   * Whether {@code password} hashes to {@code stored}, with the parameters and salt it names; false for a string that is
   * not an Argon2id hash of this format, or names more memory or passes than a check may take.
   */
  static boolean matches(String password, String stored) {
    Matcher phc = PHC.matcher(stored);
    if (!phc.matches()) {
      return false;
    }
    int memoryKib = Integer.parseInt(phc.group(1));
    int passes = Integer.parseInt(phc.group(2));
    if (memoryKib > MAX_MEMORY_KIB || passes > MAX_PASSES) {
      return false;
    }
    try {
      byte[] expected = DECODER.decode(phc.group(5));
      byte[] actual = compute(password, DECODER.decode(phc.group(4)), memoryKib, passes,
          Integer.parseInt(phc.group(3)), expected.length);
      return MessageDigest.isEqual(actual, expected);
    } catch (IllegalArgumentException e) {
      // Base64 that does not decode, or parameters out of Argon2's range (no memory, no pass, no lane).
      return false;
    }
  }

  private static byte[] compute(String password, byte[] salt, int memoryKib, int passes, int lanes, int length) {
    Argon2BytesGenerator generator = new Argon2BytesGenerator();
    generator.init(new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
        .withVersion(Argon2Parameters.ARGON2_VERSION_13)
        .withMemoryAsKB(memoryKib)
        .withIterations(passes)
        .withParallelism(lanes)
        .withSalt(salt)
        .build());
    byte[] out = new byte[length];
    generator.generateBytes(password.getBytes(StandardCharsets.UTF_8), out);
    return out;
  }
}

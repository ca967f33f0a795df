package io.quarry.chat;

import com.password4j.Argon2Function;
import com.password4j.Password;
import com.password4j.types.Argon2;

/**
 * Argon2id password hashes with a random salt (OWASP's parameters: 19 MiB, 2 passes, 1 lane). Slow by
 * design, so always called on a worker thread.
 */
final class Passwords {

  private static final Argon2Function ARGON2 = Argon2Function.getInstance(19_456, 2, 1, 32, Argon2.ID);
  /** Checked when the email is unknown, so that a wrong email costs the same time as a wrong password. */
  private static final String DUMMY = hash("not a password of anybody");

  private Passwords() {
  }

  static String hash(String password) {
    return Password.hash(password).addRandomSalt(16).with(ARGON2).getResult();
  }

  static boolean matches(String password, String hash) {
    return Password.check(password, hash == null ? DUMMY : hash).with(ARGON2);
  }
}

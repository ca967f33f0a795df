package io.quarry.chat;

import com.password4j.Argon2Function;
import com.password4j.Password;
import com.password4j.types.Argon2;
import io.quarry.bench.LoadStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one Argon2id hash costs, with the parameters Passwords uses (19 MiB, 2 passes, 1 lane): Quarry's
 * ({@link Argon2id}, Bouncy Castle's arithmetic) against password4j 1.8.4's, which Quarry used before, alternately in
 * one JVM. In the chat verticle's package, since Argon2id is its own. {@code bench/run.sh passwords} runs it twice: as a
 * node's JVM compiles (C2), and with C1 alone, as the suite's test JVMs do.
 */
public final class PasswordBench {

  private static final int ROUNDS = 7;
  private static final int PER_ROUND = 8;

  private PasswordBench() {
  }

  public static void main(String[] args) {
    Argon2id quarry = new Argon2id(19_456, 2, 1);
    Argon2Function before = Argon2Function.getInstance(19_456, 2, 1, 32, Argon2.ID);
    List<Double> ours = new ArrayList<>();
    List<Double> theirs = new ArrayList<>();
    for (int round = 0; round < ROUNDS; round++) {
      ours.add(msPerHash(() -> quarry.hash("correct horse battery staple")));
      theirs.add(msPerHash(() -> Password.hash("correct horse battery staple").addRandomSalt(16).with(before)));
    }
    // The first two rounds compile what the others run.
    double q = LoadStats.median(ours.subList(2, ROUNDS));
    double p = LoadStats.median(theirs.subList(2, ROUNDS));
    System.out.printf(Locale.ROOT, "Argon2id, ms a hash (median of %d rounds of %d after 2 to warm up): Quarry %.1f,"
        + " password4j 1.8.4 %.1f: %.2fx%n", ROUNDS - 2, PER_ROUND, q, p, q / p);
  }

  private static double msPerHash(Runnable hash) {
    long started = System.nanoTime();
    for (int i = 0; i < PER_ROUND; i++) {
      hash.run();
    }
    return (System.nanoTime() - started) / 1e6 / PER_ROUND;
  }
}

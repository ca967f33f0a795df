package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Argon2id in the PHC format: the hashes accounts stored before (password4j's) still sign in, with their parameters. */
class Argon2idTest {

  /** Written by password4j 1.8.4 with the parameters Passwords uses, as every account before this change was. */
  static final String STORED = "$argon2id$v=19$m=19456,t=2,p=1$dMDOQaLa35FEJoAT4xXNig$"
      + "b9kzgqPdymntQalnoJbObgO/+u2cNMkob6f9C0RnQuE";
  /** Written by password4j 1.8.4 with other parameters: 4 MiB, 3 passes, 2 lanes. */
  static final String OTHER_PARAMETERS = "$argon2id$v=19$m=4096,t=3,p=2$hpjsqJ94oLCp9S2zfTrawA$"
      + "qI7YDVSkxeatJrlgfFA4bUgOdrzghahKSMPsJld0d78";

  @Test
  @DisplayName("a hash stored by the earlier releases matches its password, and no other")
  void storedBefore() {
    assertThat(Argon2id.matches("correct horse", STORED)).isTrue();
    assertThat(Argon2id.matches("correct horsE", STORED)).isFalse();
    assertThat(Argon2id.matches("", STORED)).isFalse();
  }

  @Test
  @DisplayName("a stored hash is checked with the memory, passes and lanes it names (a password beyond ASCII too)")
  void itsOwnParameters() {
    assertThat(Argon2id.matches("pässwörd 🙂", OTHER_PARAMETERS)).isTrue();
    assertThat(Argon2id.matches("passwörd 🙂", OTHER_PARAMETERS)).isFalse();
  }

  @Test
  @DisplayName("a new hash names its parameters, has a salt of its own and matches its password only")
  void newHash() {
    Argon2id argon2 = new Argon2id(19_456, 2, 1);
    String first = argon2.hash("correct horse");
    String second = argon2.hash("correct horse");
    assertThat(first).matches("\\$argon2id\\$v=19\\$m=19456,t=2,p=1\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}")
        .isNotEqualTo(second);
    assertThat(Argon2id.matches("correct horse", first)).isTrue();
    assertThat(Argon2id.matches("correct horse", second)).isTrue();
    assertThat(Argon2id.matches("wrong horse", first)).isFalse();
  }

  @Test
  @DisplayName("a stored hash may ask for up to 64 MiB and 10 passes; one that asks for more never matches, and costs"
      + " nothing")
  void boundedCost() {
    String mostMemory = new Argon2id(Argon2id.MAX_MEMORY_KIB, 1, 1).hash("correct horse");
    String mostPasses = new Argon2id(8, Argon2id.MAX_PASSES, 1).hash("correct horse");
    assertThat(Argon2id.matches("correct horse", mostMemory)).isTrue();
    assertThat(Argon2id.matches("correct horse", mostPasses)).isTrue();
    // Real hashes of the password, refused for what they ask alone.
    assertThat(Argon2id.matches("correct horse", new Argon2id(Argon2id.MAX_MEMORY_KIB + 1, 1, 1).hash("correct horse")))
        .isFalse();
    assertThat(Argon2id.matches("correct horse", new Argon2id(8, Argon2id.MAX_PASSES + 1, 1).hash("correct horse")))
        .isFalse();
    // Checked, this one would take 9.5 GB.
    assertThat(Argon2id.matches("correct horse", STORED.replace("m=19456", "m=9999999"))).isFalse();
  }

  @Test
  @DisplayName("a string that is not an Argon2id hash of this format never matches")
  void notAHash() {
    String argon2i = STORED.replace("$argon2id$", "$argon2i$");
    String otherVersion = STORED.replace("$v=19$", "$v=16$");
    String truncated = STORED.substring(0, STORED.length() - 10);
    String padded = STORED + "=";
    String noMemory = STORED.replace("m=19456", "m=0");
    String noPasses = STORED.replace("t=2", "t=0");
    String noLanes = STORED.replace("p=1", "p=0");
    for (String stored : new String[] {argon2i, otherVersion, truncated, padded, noMemory, noPasses, noLanes, "",
        "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"}) {
      assertThat(Argon2id.matches("correct horse", stored)).as(stored).isFalse();
    }
  }
}

package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class UrlSecretsTest {

  static final String S3 = "https://b.s3.amazonaws.com/d/x.parquet?versionId=7&X-Amz-Algorithm=AWS4-HMAC-SHA256"
      + "&X-Amz-Credential=AKIAEXAMPLE%2F20261129%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261129T010000Z"
      + "&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Security-Token=TOKENVALUE&X-Amz-Signature=SECRETSIG";

  @Test
  @DisplayName("S3 SigV4: signature, credential and session token are redacted; other parameters and names kept")
  void s3() {
    assertThat(UrlSecrets.shown(S3)).isEqualTo("https://b.s3.amazonaws.com/d/x.parquet?versionId=7"
        + "&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=[redacted]&X-Amz-Date=20261129T010000Z"
        + "&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Security-Token=[redacted]&X-Amz-Signature=[redacted]");
  }

  @Test
  @DisplayName("S3 V2, GCS, Azure SAS, generic names and user:pass@ lose their secret values, whatever their case")
  void others() {
    assertThat(UrlSecrets.shown("https://h/x?AWSAccessKeyId=AK&Expires=1&Signature=S%2B"))
        .isEqualTo("https://h/x?AWSAccessKeyId=[redacted]&Expires=1&Signature=[redacted]");
    assertThat(UrlSecrets.shown("https://h/x?X-Goog-Credential=c&X-Goog-Signature=s&GoogleAccessId=g"))
        .isEqualTo("https://h/x?X-Goog-Credential=[redacted]&X-Goog-Signature=[redacted]&GoogleAccessId=[redacted]");
    assertThat(UrlSecrets.shown("https://a.blob.core.windows.net/c/x?sv=2022&se=2026-01-01&sp=r&sig=abc%3D"))
        .isEqualTo("https://a.blob.core.windows.net/c/x?sv=2022&se=2026-01-01&sp=r&sig=[redacted]");
    assertThat(UrlSecrets.shown("http://h/x?TOKEN=1&access_token=2&key=3&api_key=4&signature=5&password=6"
        + "&secret=7&auth=8&page=9#f"))
        .isEqualTo("http://h/x?TOKEN=[redacted]&access_token=[redacted]&key=[redacted]&api_key=[redacted]"
            + "&signature=[redacted]&password=[redacted]&secret=[redacted]&auth=[redacted]&page=9#f");
    assertThat(UrlSecrets.shown("https://me:hunter2@h:8443/x.parquet")).isEqualTo("https://me:[redacted]@h:8443/x.parquet");
    assertThat(UrlSecrets.shown("https://h/x.parquet?a=1&key")).isEqualTo("https://h/x.parquet?a=1&key");
  }

  @Test
  @DisplayName("sealed carries no secret in clear, shows as redacted, and opens to the URL as pasted")
  void sealed() {
    String sealed = UrlSecrets.sealed(S3);
    assertThat(sealed).doesNotContain("SECRETSIG").doesNotContain("TOKENVALUE").doesNotContain("AKIAEXAMPLE")
        .contains("versionId=7").contains("X-Amz-Signature=qs1.");
    assertThat(UrlSecrets.sealed(S3)).as("the same link seals alike").isEqualTo(sealed);
    assertThat(UrlSecrets.sealed(sealed)).as("sealing twice changes nothing").isEqualTo(sealed);
    assertThat(UrlSecrets.shown(sealed)).isEqualTo(UrlSecrets.shown(S3));
    assertThat(UrlSecrets.opened(sealed)).isEqualTo(S3);
    assertThat(UrlSecrets.shownIn("{\"url\":\"" + sealed + "\",\"note\":\"qs1.short\"}"))
        .isEqualTo("{\"url\":\"" + UrlSecrets.shown(S3) + "\",\"note\":\"qs1.short\"}");
    assertThat(UrlSecrets.opened("https://h/plain.parquet")).isEqualTo("https://h/plain.parquet");
  }

  @Test
  @DisplayName("a value sealed under another key, or altered, does not open and says the link has expired")
  void unsealable() {
    String sealed = UrlSecrets.sealed(S3);
    UrlSeal.useSecret("another node");
    try {
      assertThatThrownBy(() -> UrlSecrets.opened(sealed)).isInstanceOf(UrlSeal.Unsealable.class)
          .hasMessage(UrlSecrets.EXPIRED);
    } finally {
      UrlSeal.useSecret(BusSecret.random());
    }
    assertThatThrownBy(() -> UrlSecrets.opened("https://h/x?sig=qs1.AAAA")).isInstanceOf(UrlSeal.Unsealable.class);
  }

  @Test
  @DisplayName("without a shared key (a configured cluster) nothing is sealed, and text shows clear values redacted")
  void noSharedKey() {
    UrlSeal.useSecret(null);
    try {
      assertThat(UrlSecrets.sealed(S3)).isEqualTo(S3);
      assertThat(UrlSecrets.shownIn("{\"url\":\"" + S3 + "\",\"sql\":\"token\"}"))
          .isEqualTo("{\"url\":\"" + UrlSecrets.shown(S3) + "\",\"sql\":\"token\"}");
    } finally {
      UrlSeal.useSecret(BusSecret.random());
    }
  }

  @Test
  @DisplayName("a fresh link names the same object as the expired one; a plain link names none")
  void sameObject() {
    String fresh = S3.replace("20261129T010000Z", "20261130T010000Z").replace("SECRETSIG", "OTHERSIG");
    assertThat(UrlSecrets.object(fresh)).isEqualTo(UrlSecrets.object(S3))
        .isEqualTo("https://b.s3.amazonaws.com/d/x.parquet?versionId=7");
    assertThat(UrlSecrets.object(UrlSecrets.sealed(S3))).isEqualTo(UrlSecrets.object(S3));
    assertThat(UrlSecrets.object(S3.replace("versionId=7", "versionId=8"))).isNotEqualTo(UrlSecrets.object(S3));
    assertThat(UrlSecrets.object("https://h/x.parquet?page=1")).isNull();
    assertThat(UrlSecrets.signed("https://h/x.parquet?page=1")).isFalse();
    assertThat(UrlSecrets.signed(S3)).isTrue();
  }

  @Test
  @DisplayName("a link's own expiry: X-Amz-Date plus X-Amz-Expires, Expires in epoch seconds, Azure's se")
  void expiry() {
    assertThat(UrlSecrets.expired(S3, Instant.parse("2026-11-29T01:59:59Z"))).isFalse();
    assertThat(UrlSecrets.expired(S3, Instant.parse("2026-11-29T02:00:01Z"))).isTrue();
    assertThat(UrlSecrets.expired("https://h/x?Expires=1700000000&Signature=s", Instant.parse("2026-01-01T00:00:00Z")))
        .isTrue();
    assertThat(UrlSecrets.expired("https://h/x?se=2026-01-01T00%3A00%3A00Z&sig=s", Instant.parse("2025-12-31T00:00:00Z")))
        .isFalse();
    assertThat(UrlSecrets.expired("https://h/x?se=2026-01-01&sig=s", Instant.parse("2026-01-02T00:00:00Z"))).isTrue();
    assertThat(UrlSecrets.expired("https://h/x.parquet", Instant.now())).isFalse();
  }
}

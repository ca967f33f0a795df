package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A Range header read as RFC 9110 says, at the file's ends and just past them. */
class ByteSpanTest {

  @Test
  @DisplayName("a first-last range is clipped to the file; its last byte is the limit, the byte after it unsatisfiable")
  void firstLast() {
    assertThat(ByteSpan.parse("bytes=0-0", 10)).isEqualTo(new ByteSpan(0, 0));
    assertThat(ByteSpan.parse("bytes=2-5", 10)).isEqualTo(new ByteSpan(2, 5));
    assertThat(ByteSpan.parse("bytes=9-9", 10)).isEqualTo(new ByteSpan(9, 9));
    assertThat(ByteSpan.parse("bytes=9-", 10)).isEqualTo(new ByteSpan(9, 9));
    assertThat(ByteSpan.parse("bytes=3-10", 10)).isEqualTo(new ByteSpan(3, 9));
    assertThat(ByteSpan.parse("bytes=3-999999999999999999", 10)).isEqualTo(new ByteSpan(3, 9));
    assertThat(ByteSpan.parse("bytes=10-", 10).unsatisfiable()).isTrue();
    assertThat(ByteSpan.parse("bytes=10-12", 10).unsatisfiable()).isTrue();
    assertThat(ByteSpan.parse("bytes=0-", 0).unsatisfiable()).as("an empty file has no byte 0").isTrue();
  }

  @Test
  @DisplayName("a suffix range is the file's last bytes, all of them when it asks for more; none asked is unsatisfiable")
  void suffix() {
    assertThat(ByteSpan.parse("bytes=-1", 10)).isEqualTo(new ByteSpan(9, 9));
    assertThat(ByteSpan.parse("bytes=-10", 10)).isEqualTo(new ByteSpan(0, 9));
    assertThat(ByteSpan.parse("bytes=-11", 10)).isEqualTo(new ByteSpan(0, 9));
    assertThat(ByteSpan.parse("bytes=-0", 10).unsatisfiable()).isTrue();
    assertThat(ByteSpan.parse("bytes=-5", 0).unsatisfiable()).isTrue();
  }

  @Test
  @DisplayName("several ranges, a backwards one, another unit, a number too long or no numbers: the whole file")
  void unread() {
    for (String header : new String[] {"bytes=0-1,3-4", "bytes=5-2", "items=0-3", "bytes=-", "bytes=a-3", "bytes 0-3",
        "bytes=0-3 junk", "bytes=1234567890123456789-", ""}) {
      assertThat(ByteSpan.parse(header, 10)).as(header).isNull();
    }
    assertThat(ByteSpan.parse(" bytes=0-3", 10)).as("a leading space").isNull();
    assertThat(ByteSpan.parse("bytes= 0-3 ", 10)).as("spaces around the range").isEqualTo(new ByteSpan(0, 3));
  }
}

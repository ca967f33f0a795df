package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.VMOption.Origin;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** When a node keeps its heap near 768 MB (ClassArchiveIT starts one under ZGC and reads the flag back). */
class SoftHeapTest {

  private static final long GB = 1L << 30;

  @Test
  @DisplayName("under ZGC with a maximum heap above 768 MB and no soft size given, and only then")
  void onlyThen() {
    assertThat(SoftHeap.applies(true, Origin.ERGONOMIC, 6 * GB)).isTrue();
    assertThat(SoftHeap.applies(true, Origin.DEFAULT, 6 * GB)).isTrue();
    assertThat(SoftHeap.applies(false, Origin.ERGONOMIC, 6 * GB)).as("another collector").isFalse();
    assertThat(SoftHeap.applies(true, Origin.ERGONOMIC, SoftHeap.SOFT_BYTES)).as("a maximum no larger").isFalse();
    assertThat(SoftHeap.applies(true, Origin.ERGONOMIC, SoftHeap.SOFT_BYTES + 1)).isTrue();
    for (Origin given : new Origin[] {Origin.VM_CREATION, Origin.ENVIRON_VAR, Origin.CONFIG_FILE, Origin.MANAGEMENT,
        Origin.ATTACH_ON_DEMAND, Origin.OTHER}) {
      assertThat(SoftHeap.applies(true, given, 6 * GB)).as("given by %s", given).isFalse();
    }
  }
}

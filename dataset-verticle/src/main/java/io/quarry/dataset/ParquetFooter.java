package io.quarry.dataset;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;

/**
 * What the pipeline reads of a Parquet footer itself: that it decodes, and the file's row count. Column types are the
 * engine's to say (see {@link EngineSchema}).
 */
final class ParquetFooter {

  private ParquetFooter() {
  }

  /** Decodes the Thrift {@code FileMetaData} of a footer (row groups skipped) and answers its row count. */
  static long rowCount(byte[] footer) throws IOException {
    FileMetaData meta = Util.readFileMetaData(new ByteArrayInputStream(footer), true);
    if (meta.getSchema() == null || meta.getSchema().isEmpty()) {
      throw new IOException("The footer has no schema");
    }
    return meta.getNum_rows();
  }
}

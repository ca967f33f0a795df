package io.quarry.storage;

import io.vertx.jdbcclient.spi.JDBCColumnDescriptorProvider;
import io.vertx.jdbcclient.spi.JDBCDecoderImpl;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * How the JDBC client reads what SQLite answers (found, as {@link SqliteParameters} is, by its service file): each value
 * as the driver holds it — text a String, an integer an Integer or a Long, a real a Double, null null. The client's own
 * decoder has the driver describe the column again for every value of every row (its declared type, its type by the
 * value at hand, its class: native calls, a regular expression and UTF-8 decoding each), which was a tenth of all a
 * node allocated while 200 answers streamed. Quarry's columns are TEXT, INTEGER and BIGINT, read as strings and
 * numbers, so the description changes nothing it reads.
 */
public final class SqliteValues extends JDBCDecoderImpl {

  @Override
  public Object parse(ResultSet rs, int pos, JDBCColumnDescriptorProvider columns) throws SQLException {
    return cast(rs.getObject(pos));
  }
}

package io.quarry.dataset;

import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;

/** The DuckDB type a Parquet leaf column reads as, from its physical, logical and converted types. */
final class ParquetTypes {

  private ParquetTypes() {
  }

  static String duckDbType(SchemaElement e) {
    LogicalType logical = e.isSetLogicalType() ? e.getLogicalType() : null;
    if (logical != null) {
      String fromLogical = fromLogical(logical);
      if (fromLogical != null) {
        return fromLogical;
      }
    }
    if (e.isSetConverted_type()) {
      String fromConverted = fromConverted(e);
      if (fromConverted != null) {
        return fromConverted;
      }
    }
    if (!e.isSetType()) {
      return "VARCHAR";
    }
    return switch (e.getType()) {
      case BOOLEAN -> "BOOLEAN";
      case INT32 -> "INTEGER";
      case INT64 -> "BIGINT";
      case INT96 -> "TIMESTAMP";
      case FLOAT -> "FLOAT";
      case DOUBLE -> "DOUBLE";
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> "BLOB";
    };
  }

  private static String fromLogical(LogicalType logical) {
    if (logical.isSetSTRING() || logical.isSetENUM() || logical.isSetJSON()) {
      return "VARCHAR";
    }
    if (logical.isSetUUID()) {
      return "UUID";
    }
    if (logical.isSetDATE()) {
      return "DATE";
    }
    if (logical.isSetDECIMAL()) {
      return "DECIMAL(" + logical.getDECIMAL().getPrecision() + "," + logical.getDECIMAL().getScale() + ")";
    }
    if (logical.isSetTIMESTAMP()) {
      return logical.getTIMESTAMP().isIsAdjustedToUTC() ? "TIMESTAMP WITH TIME ZONE" : "TIMESTAMP";
    }
    if (logical.isSetTIME()) {
      return "TIME";
    }
    if (logical.isSetINTEGER()) {
      int bits = logical.getINTEGER().getBitWidth();
      boolean signed = logical.getINTEGER().isIsSigned();
      String base = switch (bits) {
        case 8 -> "TINYINT";
        case 16 -> "SMALLINT";
        case 32 -> "INTEGER";
        default -> "BIGINT";
      };
      return signed ? base : "U" + base;
    }
    return null;
  }

  private static String fromConverted(SchemaElement e) {
    ConvertedType converted = e.getConverted_type();
    return switch (converted) {
      case UTF8, ENUM, JSON -> "VARCHAR";
      case DATE -> "DATE";
      case DECIMAL -> "DECIMAL(" + e.getPrecision() + "," + e.getScale() + ")";
      case TIMESTAMP_MILLIS, TIMESTAMP_MICROS -> "TIMESTAMP";
      case TIME_MILLIS, TIME_MICROS -> "TIME";
      case INT_8 -> "TINYINT";
      case INT_16 -> "SMALLINT";
      case INT_32 -> "INTEGER";
      case INT_64 -> "BIGINT";
      case UINT_8 -> "UTINYINT";
      case UINT_16 -> "USMALLINT";
      case UINT_32 -> "UINTEGER";
      case UINT_64 -> "UBIGINT";
      default -> null;
    };
  }
}

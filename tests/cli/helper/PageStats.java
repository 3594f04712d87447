// PageStats.java FILE... - print the statistics parquet-mr (Apache
// Parquet's Java reader, the one Spark and Hive read with) finds in the
// header of every data page of every column chunk, one line a page:
//   FILE RG COLUMN PAGE VALUES NULLS HAS_MINMAX MIN MAX
// tab-separated; MIN and MAX as hex: a BYTE_ARRAY's bytes, an INT64's
// or a DOUBLE's 8 bytes big-endian (a double's raw bits); "-" when the
// page has no min/max; NULLS "-" when its statistics are empty (not
// written).  Run with the jars of pyspark's venv on the class path
// (java -cp 'jars/*' PageStats.java ...): tests/cli/helper/page-stats.py
// compares the lines with the values.
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;

public class PageStats {
	static String hex(byte[] b) {
		StringBuilder s = new StringBuilder();
		for (byte x : b)
			s.append(String.format("%02x", x & 0xff));
		return s.toString();
	}

	static String value(Object v) {
		if (v instanceof Binary)
			return hex(((Binary) v).getBytes());
		if (v instanceof Long)
			return hex(ByteBuffer.allocate(8).putLong((Long) v).array());
		if (v instanceof Double)
			return hex(ByteBuffer.allocate(8).putLong(
			    Double.doubleToRawLongBits((Double) v)).array());
		throw new IllegalStateException("a statistic of type " +
		    v.getClass());
	}

	public static void main(String[] args) throws Exception {
		Configuration conf = new Configuration();
		for (String f : args) {
			try (ParquetFileReader r = ParquetFileReader.open(
			    HadoopInputFile.fromPath(new Path(f), conf))) {
				List<ColumnDescriptor> cols = r.getFileMetaData()
				    .getSchema().getColumns();
				PageReadStore rg;
				int g = 0;
				while ((rg = r.readNextRowGroup()) != null) {
					for (ColumnDescriptor c : cols) {
						PageReader pr = rg.getPageReader(c);
						DataPage p;
						int i = 0;
						while ((p = pr.readPage()) != null) {
							Statistics<?> st =
							    ((DataPageV1) p).getStatistics();
							boolean mm = !st.isEmpty() &&
							    st.hasNonNullValue();
							System.out.println(f + "\t" + g + "\t" +
							    c.getPath()[0] + "\t" + i + "\t" +
							    p.getValueCount() + "\t" +
							    (st.isEmpty() ? "-" :
							    Long.toString(st.getNumNulls())) +
							    "\t" + (mm ? 1 : 0) + "\t" +
							    (mm ? value(st.genericGetMin()) : "-") +
							    "\t" +
							    (mm ? value(st.genericGetMax()) : "-"));
							i++;
						}
					}
					g++;
				}
			}
		}
	}
}

// fastjson over JDBC (pgjdbc): native Java values with exact numbers.
//
//   Object doc = FastjsonJdbc.read(rs, "doc");          // Map / List / String / Integer, Long,
//                                                       // BigInteger / BigDecimal / Boolean / null
//   FastjsonJdbc.write(ps, 1, doc);                     // setObject(i, json, Types.OTHER)
//   ps.setObject(1, FastjsonJdbc.pgobject(doc));        // or as a PGobject of type fastjson
//
// pgjdbc reads a type it does not know as text: rs.getString gives the
// server's canonical JSON text and rs.getObject a PGobject whose getType() is
// "fastjson" and getValue() that text. It never asks for fastjson in binary, so
// nothing here needs the tape. Parameters go as text of unspecified type
// (setObject with Types.OTHER, a PGobject, or setString on a connection with
// stringtype=unspecified) and the server reads them as fastjson.
//
// Numbers: Jackson with USE_BIG_DECIMAL_FOR_FLOATS. Integers become Integer,
// Long or BigInteger (whichever holds them), every other number a BigDecimal
// with the digits and scale as written (2.50 has scale 2; 1e3 is 1E+3), so
// nothing is rounded; writing a BigDecimal gives its toString() (2.50, 1E+3),
// the same value. Objects are LinkedHashMaps in document order; a duplicated
// key keeps its last value, as in jsonb.
import java.io.IOException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import org.postgresql.util.PGobject;

public final class FastjsonJdbc {
    public static final ObjectMapper MAPPER =
        new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private FastjsonJdbc() {}

    /** JSON text (the server's, or any) to a native value, numbers exact. */
    public static Object parse(String json) throws IOException {
        return json == null ? null : MAPPER.readValue(json, Object.class);
    }

    /** A native value to JSON text. */
    public static String stringify(Object value) throws IOException {
        return MAPPER.writeValueAsString(value);
    }

    public static Object read(ResultSet rs, String column) throws SQLException, IOException {
        return parse(rs.getString(column));
    }

    public static Object read(ResultSet rs, int column) throws SQLException, IOException {
        return parse(rs.getString(column));
    }

    public static void write(PreparedStatement ps, int index, Object value)
            throws SQLException, IOException {
        ps.setObject(index, stringify(value), Types.OTHER);
    }

    public static PGobject pgobject(Object value) throws SQLException, IOException {
        PGobject o = new PGobject();
        o.setType("fastjson");
        o.setValue(stringify(value));
        return o;
    }
}

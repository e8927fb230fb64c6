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
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.postgresql.util.PGobject;

public final class FastjsonJdbc {
    // Jackson's default limits (nesting 1000, numbers of 1000 characters, strings of
    // 20 MB) refuse documents fastjson stores: lift them to fastjson's. Debian 12's
    // jackson-core 2.14 (with the limits backported) checks the nesting depth
    // against the JVM-wide defaults whatever the factory says, so those are raised
    // too: this changes them for every ObjectMapper in the JVM.
    static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
        .maxNestingDepth(10_000)                         // fastjson.max_depth's default
        .maxNumberLength(Integer.MAX_VALUE)
        .maxStringLength(Integer.MAX_VALUE)
        .build();
    static {
        StreamReadConstraints.overrideDefaultStreamReadConstraints(LIMITS);
    }
    public static final ObjectMapper MAPPER =
        new ObjectMapper(JsonFactory.builder().streamReadConstraints(LIMITS).build())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private FastjsonJdbc() {}

    /** JSON text (the server's, or any) to a native value, numbers exact. */
    public static Object parse(String json) throws IOException {
        return json == null ? null : MAPPER.readValue(json, Object.class);
    }

    /** A native value to JSON text: Maps, Lists, Strings, numbers (BigDecimal as
     *  its toString(), 2.50 or 1E+3), Booleans and null; anything else as Jackson
     *  writes it. Iterative for Maps and Lists, so any depth is written (Jackson's
     *  own serializers recurse, and overflow the stack a few thousand levels down). */
    public static String stringify(Object value) throws IOException {
        StringWriter sw = new StringWriter();
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(sw)) {
            ArrayDeque<Iterator<?>> open = new ArrayDeque<>();
            ArrayDeque<Boolean> isMap = new ArrayDeque<>();
            Object v = value;
            for (;;) {
                if (v instanceof Map) {
                    g.writeStartObject();
                    open.push(((Map<?, ?>) v).entrySet().iterator());
                    isMap.push(true);
                } else if (v instanceof List) {
                    g.writeStartArray();
                    open.push(((List<?>) v).iterator());
                    isMap.push(false);
                } else if (v == null) {
                    g.writeNull();
                } else if (v instanceof String) {
                    g.writeString((String) v);
                } else if (v instanceof Boolean) {
                    g.writeBoolean((Boolean) v);
                } else if (v instanceof BigDecimal) {
                    g.writeNumber((BigDecimal) v);
                } else if (v instanceof BigInteger) {
                    g.writeNumber((BigInteger) v);
                } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
                    g.writeNumber(((Number) v).longValue());
                } else if (v instanceof Double || v instanceof Float) {
                    double d = ((Number) v).doubleValue();
                    if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalArgumentException(d + " cannot be a JSON number");
                    g.writeNumber(d);
                } else {
                    g.writeObject(v);
                }
                for (;;) {              // the next value to write, closing what is done
                    Iterator<?> it = open.peek();
                    if (it == null) {
                        g.flush();
                        return sw.toString();
                    }
                    if (!it.hasNext()) {
                        open.pop();
                        if (isMap.pop()) g.writeEndObject(); else g.writeEndArray();
                        continue;
                    }
                    Object x = it.next();
                    if (isMap.peek()) {
                        Map.Entry<?, ?> e = (Map.Entry<?, ?>) x;
                        g.writeFieldName(String.valueOf(e.getKey()));
                        v = e.getValue();
                    } else {
                        v = x;
                    }
                    break;
                }
            }
        }
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

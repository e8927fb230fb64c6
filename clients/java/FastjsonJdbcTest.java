// The JDBC recipe (FastjsonJdbc) over every document of FJ_DOCS (NDJSON of
// [name, text] lines from clients/python/corpus.py): getString and PGobject
// give the server's canonical text; the native value read back is the
// original's (exact numbers: BigDecimal compared with equals, scale included;
// key order); each document written with setObject(Types.OTHER) and as a
// PGobject is the original for the server (fastjson =). Prints
// "N passed, N failed" and exits 1 on a failure.
// usage: java -cp ... FastjsonJdbcTest JDBC_URL
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.postgresql.util.PGobject;

public class FastjsonJdbcTest {
    static int passed = 0, failed = 0;

    static void check(boolean ok, String what) {
        if (ok) {
            passed++;
        } else {
            failed++;
            System.out.println("FAIL: " + what);
        }
    }

    /** null when a and b are the same JSON value with exact numbers and the same key
     *  order; iterative (the edge documents nest 5,000 deep). */
    static String same(Object a0, Object b0, String path0) {
        ArrayDeque<Object[]> todo = new ArrayDeque<>();
        todo.push(new Object[] {a0, b0, path0});
        while (!todo.isEmpty()) {
            Object[] t = todo.pop();
            Object a = t[0], b = t[1];
            String path = (String) t[2];
            if (a == null || b == null) {
                if (a != b) return path + ": null vs not";
                continue;
            }
            if (a.getClass() != b.getClass()) return path + ": " + a.getClass().getSimpleName() + " vs " + b.getClass().getSimpleName();
            if (a instanceof Map) {
                Map<?, ?> ma = (Map<?, ?>) a, mb = (Map<?, ?>) b;
                if (!new ArrayList<>(ma.keySet()).equals(new ArrayList<>(mb.keySet()))) return path + ": keys differ";
                for (Object k : ma.keySet()) todo.push(new Object[] {ma.get(k), mb.get(k), path + "." + k});
            } else if (a instanceof List) {
                List<?> la = (List<?>) a, lb = (List<?>) b;
                if (la.size() != lb.size()) return path + ": sizes differ";
                for (int i = 0; i < la.size(); i++) todo.push(new Object[] {la.get(i), lb.get(i), path + "[" + i + "]"});
            } else if (!a.equals(b)) {      // BigDecimal.equals: digits and scale
                return path + ": " + a + " vs " + b;
            }
        }
        return null;
    }

    public static void main(String[] args) throws Exception {
        List<String[]> docs = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(System.getenv("FJ_DOCS")), StandardCharsets.UTF_8)) {
            if (line.isEmpty()) continue;
            List<?> pair = (List<?>) FastjsonJdbc.MAPPER.readValue(line, List.class);
            docs.add(new String[] {(String) pair.get(0), (String) pair.get(1)});
        }
        try (Connection c = DriverManager.getConnection(args[0])) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE EXTENSION IF NOT EXISTS fastjson");
                st.execute("DROP TABLE IF EXISTS jdbc_orig, jdbc_doc");
                st.execute("CREATE TABLE jdbc_orig (id int PRIMARY KEY, name text, doc fastjson)");
                st.execute("CREATE TABLE jdbc_doc (id int, path text, doc fastjson)");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO jdbc_orig VALUES (?, ?, ?::text::fastjson)")) {
                for (int i = 0; i < docs.size(); i++) {
                    ps.setInt(1, i);
                    ps.setString(2, docs.get(i)[0]);
                    ps.setString(3, docs.get(i)[1]);
                    ps.addBatch();
                }
                ps.executeBatch();
            }

            // the example
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT '{\"a\":[1,2.50,1e3,123456789012345678901234567890]}'::fastjson AS d")) {
                rs.next();
                check(rs.getString(1).equals("{\"a\":[1,2.50,1e3,123456789012345678901234567890]}"), "getString of the example");
                Object v = FastjsonJdbc.read(rs, "d");
                List<?> a = (List<?>) ((Map<?, ?>) v).get("a");
                check(a.get(0).equals(1) && a.get(1).equals(new BigDecimal("2.50")) && a.get(2).equals(new BigDecimal("1e3"))
                      && a.get(3).equals(new BigInteger("123456789012345678901234567890")), "native example: " + a);
                Object o = rs.getObject(1);
                check(o instanceof PGobject && ((PGobject) o).getType().equals("fastjson"), "getObject is a PGobject of type fastjson");
            }

            // reading: text, PGobject and native values, for every document
            int n = 0;
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT id, doc, fastjson_out(doc) FROM jdbc_orig ORDER BY id")) {
                while (rs.next()) {
                    int id = rs.getInt(1);
                    String name = docs.get(id)[0];
                    String text = rs.getString(2);
                    check(text.equals(rs.getString(3)), name + ": getString is the canonical text");
                    PGobject o = (PGobject) rs.getObject(2);
                    check(o.getValue().equals(rs.getString(3)), name + ": PGobject.getValue is the canonical text");
                    String d = same(FastjsonJdbc.read(rs, 2), FastjsonJdbc.parse(docs.get(id)[1]), "$");
                    check(d == null, name + ": native value: " + d);
                    n++;
                }
            }
            check(n == docs.size(), "every document read");

            // writing: setObject(Types.OTHER) and PGobject, from native values
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO jdbc_doc VALUES (?, ?, ?)")) {
                for (int i = 0; i < docs.size(); i++) {
                    Object v = FastjsonJdbc.parse(docs.get(i)[1]);
                    ps.setInt(1, i);
                    ps.setString(2, "setObject OTHER");
                    FastjsonJdbc.write(ps, 3, v);
                    ps.addBatch();
                    ps.setInt(1, i);
                    ps.setString(2, "PGobject");
                    ps.setObject(3, FastjsonJdbc.pgobject(v));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            for (String path : new String[] {"setObject OTHER", "PGobject"}) {
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT count(*) FILTER (WHERE d.doc = o.doc), count(d.doc) FROM jdbc_orig o " +
                        "LEFT JOIN jdbc_doc d ON d.id = o.id AND d.path = ?")) {
                    ps.setString(1, path);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        check(rs.getInt(1) == docs.size() && rs.getInt(2) == docs.size(),
                              path + ": " + rs.getInt(1) + " of " + docs.size() + " stored documents equal the originals");
                    }
                }
            }
            // written back, read back: the same native value
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT id, doc FROM jdbc_doc WHERE path = 'PGobject' ORDER BY id")) {
                while (rs.next()) {
                    String d = same(FastjsonJdbc.read(rs, 2), FastjsonJdbc.parse(docs.get(rs.getInt(1))[1]), "$");
                    check(d == null, docs.get(rs.getInt(1))[0] + ": written and read back: " + d);
                }
            }
            // ->> in SQL keeps the spelling
            try (PreparedStatement ps = c.prepareStatement("SELECT ?::fastjson ->> 'a'")) {
                ps.setObject(1, "{\"a\":2.50}", Types.OTHER);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    check(rs.getString(1).equals("2.50"), "->> of a parameter");
                }
            }
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE jdbc_orig, jdbc_doc");
            }
        }
        System.out.println("jdbc: " + passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }
}

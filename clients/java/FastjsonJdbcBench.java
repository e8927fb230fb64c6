// Read-path speed of the JDBC recipe: every row of bench_fj (fastjson) and
// bench_jb (jsonb, the same documents) read with FastjsonJdbc.read (getString,
// then Jackson with BigDecimal), interleaved, REPEATS times (args[1], default
// 7), after 3 warm-up rounds for the JIT. Prints min / median seconds and the
// ratios of the minimums and of the medians. No pass/fail: a report.
// usage: java -cp ... FastjsonJdbcBench JDBC_URL [REPEATS]
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;

public class FastjsonJdbcBench {
    static double run(Connection c, String q) throws Exception {
        long t0 = System.nanoTime();
        int n = 0;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(q)) {
            while (rs.next()) {
                if (FastjsonJdbc.read(rs, 1) != null) n++;
            }
        }
        if (n == 0) throw new IllegalStateException("no rows");
        return (System.nanoTime() - t0) / 1e9;
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    public static void main(String[] args) throws Exception {
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        String fjq = "SELECT doc FROM bench_fj", jbq = "SELECT doc FROM bench_jb";
        try (Connection c = DriverManager.getConnection(args[0])) {
            for (int i = 0; i < 3; i++) { run(c, fjq); run(c, jbq); }
            double[] fj = new double[repeats], jb = new double[repeats];
            for (int r = 0; r < repeats; r++) {
                if (r % 2 == 0) { fj[r] = run(c, fjq); jb[r] = run(c, jbq); }
                else { jb[r] = run(c, jbq); fj[r] = run(c, fjq); }
            }
            double mf = median(fj), mj = median(jb);
            double minf = Arrays.stream(fj).min().getAsDouble(), minj = Arrays.stream(jb).min().getAsDouble();
            System.out.printf("read-path | JDBC (pgjdbc) | %.3f / %.3f s | %.3f / %.3f s | %.2fx / %.2fx | both getString + Jackson (BigDecimal)%n",
                minf, mf, minj, mj, minf / minj, mf / mj);
        }
    }
}

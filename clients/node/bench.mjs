// Read-path speed of the node-postgres recipe: every row of bench_fj (fastjson)
// and bench_jb (jsonb, the same documents) as values, interleaved, REPEATS times
// (argv[2], default 7). Prints min / median seconds and the ratios of the minimums and of the medians.
// No pass/fail: a report.
import pg from 'pg';
import { registerFastjson, fastjsonOid, parseFastjson } from './fastjson_pg.mjs';

const REPEATS = Number(process.argv[2] || 7);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

async function interleave(client, a, b) {
  const ta = [], tb = [];
  for (let r = 0; r < REPEATS; r++) {
    const order = r % 2 ? [[b, tb], [a, ta]] : [[a, ta], [b, tb]];
    for (const [q, out] of order) {
      const t0 = process.hrtime.bigint();
      const { rows } = await client.query(q);
      out.push(Number(process.hrtime.bigint() - t0) / 1e9);
      if (!rows.length) throw new Error('no rows');
    }
  }
  return [ta, tb];
}

function line(name, fj, jb, note) {
  const mf = median(fj), mj = median(jb);
  console.log(`read-path | ${name} | ${Math.min(...fj).toFixed(3)} / ${mf.toFixed(3)} s | ${Math.min(...jb).toFixed(3)} / ${mj.toFixed(3)} s | ${(Math.min(...fj) / Math.min(...jb)).toFixed(2)}x / ${(mf / mj).toFixed(2)}x | ${note}`);
}

const client = new pg.Client();
await client.connect();
await registerFastjson(client);
let [fj, jb] = await interleave(client, 'SELECT doc FROM bench_fj', 'SELECT doc FROM bench_jb');
line('node-postgres', fj, jb, "fastjson: the recipe's exact parser; jsonb: pg's JSON.parse (doubles)");
const exact = new pg.Client();
await exact.connect();
await registerFastjson(exact);
exact.setTypeParser(3802, 'text', parseFastjson);       // jsonb through the same exact parser
[fj, jb] = await interleave(exact, 'SELECT doc FROM bench_fj', 'SELECT doc FROM bench_jb');
line('node-postgres, exact parser for both', fj, jb, "jsonb parsed with the recipe's parser too");
await exact.end();
const lossy = new pg.Client();
await lossy.connect();
lossy.setTypeParser(await fastjsonOid(lossy), 'text', JSON.parse);
[fj, jb] = await interleave(lossy, 'SELECT doc FROM bench_fj', 'SELECT doc FROM bench_jb');
line('node-postgres, JSON.parse for both', fj, jb, 'fastjson parsed with JSON.parse too (numbers rounded to doubles)');
await client.end();
await lossy.end();

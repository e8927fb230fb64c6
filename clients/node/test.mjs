// The node-postgres recipe (fastjson_pg.mjs) over every document of FJ_DOCS
// (NDJSON of [name, text] lines, written by clients/python/corpus.py): written
// from its native value, read back, compared with the original's native value
// (exact numbers: BigInt and LosslessNumber text compared exactly); the server
// must find the stored document equal to the original (fastjson =); the text
// pg gives without the recipe is the server's canonical output.
// Run with: node --test test.mjs (libpq environment PGHOST, PGPORT, PGUSER).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { registerFastjson, parseFastjson, parseFastjsonExact, parseNumber, stringifyFastjson, LosslessNumber } from './fastjson_pg.mjs';

const docs = readFileSync(process.env.FJ_DOCS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
let client, plain;

// null when a and b are the same JSON value, else where they differ (iterative:
// the edge documents nest 5,000 deep)
function same(a0, b0) {
  const todo = [[a0, b0, '$']];
  while (todo.length) {
    const [a, b, path] = todo.pop();
    if (typeof a !== typeof b) return `${path}: ${typeof a} vs ${typeof b}`;
    if (a instanceof LosslessNumber || b instanceof LosslessNumber) {
      if (!(a instanceof LosslessNumber && b instanceof LosslessNumber && a.value === b.value)) return `${path}: ${a} vs ${b}`;
    } else if (Array.isArray(a) || Array.isArray(b)) {
      if (!Array.isArray(a) || !Array.isArray(b)) return `${path}: array vs not`;
      if (a.length !== b.length) return `${path}: ${a.length} vs ${b.length} elements`;
      for (let i = 0; i < a.length; i++) todo.push([a[i], b[i], `${path}[${i}]`]);
    } else if (a !== null && typeof a === 'object') {
      if (b === null) return `${path}: object vs null`;
      const ka = Object.keys(a), kb = Object.keys(b);
      if (ka.join('\u0000') !== kb.join('\u0000')) return `${path}: keys differ`;
      for (const k of ka) todo.push([a[k], b[k], `${path}.${k}`]);
    } else if (a !== b) {
      return `${path}: ${String(a).slice(0, 60)} vs ${String(b).slice(0, 60)}`;
    }
  }
  return null;
}

before(async () => {
  client = new pg.Client();
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS fastjson');
  await registerFastjson(client);
  plain = new pg.Client();
  await plain.connect();
  await client.query('DROP TABLE IF EXISTS node_orig, node_doc');
  await client.query('CREATE TABLE node_orig (id int PRIMARY KEY, name text, doc fastjson)');
  await client.query('CREATE TABLE node_doc (id int PRIMARY KEY, doc fastjson)');
  for (const [i, [name, text]] of docs.entries()) {
    await client.query('INSERT INTO node_orig VALUES ($1, $2, $3::text::fastjson)', [i, name, text]);
  }
});

after(async () => {
  await client.query('DROP TABLE IF EXISTS node_orig, node_doc');
  await client.end();
  await plain.end();
});

test('the issue example reads as values', async () => {
  const { rows } = await client.query(`SELECT '{"a":[1,2.50,1e3,123456789012345678901234567890,0.10000000000000001]}'::fastjson AS d`);
  const a = rows[0].d.a;
  assert.deepEqual(a.slice(0, 4), [1, 2.5, 1000, 123456789012345678901234567890n]);
  assert.ok(a[4] instanceof LosslessNumber && a[4].value === '0.10000000000000001');
  const j = await client.query(`SELECT '{"a":[1,2.50,1e3]}'::jsonb AS d`);
  assert.deepEqual(j.rows[0].d, { a: [1, 2.5, 1000] });   // pg's own jsonb parser, for comparison
});

test('every document: write native, read native, server equality', async () => {
  for (const [i, [name, text]] of docs.entries()) {
    const v0 = parseFastjson(text);
    await client.query('INSERT INTO node_doc VALUES ($1, $2)', [i, stringifyFastjson(v0)]);
    const { rows } = await client.query('SELECT d.doc, d.doc = o.doc AS eq FROM node_doc d JOIN node_orig o USING (id) WHERE id = $1', [i]);
    assert.equal(rows[0].eq, true, `${name}: stored differs from the original`);
    assert.equal(same(rows[0].doc, v0), null, name);
  }
  const { rows } = await client.query('SELECT id, doc FROM node_orig ORDER BY id');
  assert.equal(rows.length, docs.length);
  for (const r of rows) assert.equal(same(r.doc, parseFastjson(docs[r.id][1])), null, docs[r.id][0]);
});

test('without the recipe: the server canonical text', async () => {
  const { rows } = await plain.query('SELECT id, doc, fastjson_out(doc) AS canon FROM node_orig ORDER BY id');
  assert.equal(rows.length, docs.length);
  for (const r of rows) {
    assert.equal(typeof r.doc, 'string');
    assert.equal(r.doc, r.canon, docs[r.id][0]);
  }
});

test('binary: true damages the tape (why the recipe reads text)', async () => {
  const doc = '{"a":1,"b":[true,null,1.0],"c":"h\u00e9llo","d":-300}';
  const hex = (await plain.query('SELECT encode(fastjson_send($1::text::fastjson), \'hex\') AS h', [doc])).rows[0].h;
  const { rows } = await plain.query({ text: 'SELECT $1::text::fastjson AS d', values: [doc], binary: true });
  assert.equal(hex, '0401c11b048161218162a105030200e3e10081638668c3a96c6c6f8164592b01');
  assert.notEqual(Buffer.from(rows[0].d).toString('hex'), hex);   // pg decoded the bytes as UTF-8
});

test('parser: duplicates, __proto__, escapes, whitespace, errors', () => {
  const v = parseFastjsonExact(String.raw` { "a" : 1 , "__proto__" : {"x": "\\\"q\u00e9"} , "a" : [ -0 , 1E400 ] } `);
  assert.deepEqual(Object.keys(v), ['a', '__proto__']);
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.equal(v.__proto__.x, '\\"q\u00e9');
  assert.ok(Object.is(v.a[0], -0) && v.a[1] instanceof LosslessNumber && v.a[1].value === '1E400');
  const deep = parseFastjsonExact('['.repeat(10000) + ']'.repeat(10000));   // fastjson.max_depth
  let d = 0;
  for (let x = deep; x.length; x = x[0]) d++;
  assert.equal(d, 9999);
  for (const bad of ['', '{', '[1,]', '{"a"}', '01', '"x', 'tru', '1 2', '[1}', '{"a":1]', '[', '{"a":', '[1 2]', '{"a" 1}', '{1:2}']) {
    assert.throws(() => parseFastjsonExact(bad), SyntaxError, bad);
  }
});

test('->> and #>> keep numbers as written', async () => {
  const { rows } = await client.query(`SELECT $1::fastjson ->> 'a' AS a, $1::fastjson #>> '{b,0}' AS b`,
    [stringifyFastjson(parseFastjson('{"a":2.50,"b":[123456789012345678901234567890]}'))]);
  assert.deepEqual(rows[0], { a: '2.5', b: '123456789012345678901234567890' });   // 2.50 is the number 2.5 in JS
});

test('parser agrees with JSON.parse on every document (numbers as doubles)', () => {
  const plainNumbers = (v) => {
    if (typeof v === 'bigint') return Number(v);
    if (v instanceof LosslessNumber) return Number.parseFloat(v.value);
    if (Array.isArray(v)) return v.map(plainNumbers);
    if (v !== null && typeof v === 'object') {
      const o = {};
      for (const k of Object.keys(v)) Object.defineProperty(o, k, { value: plainNumbers(v[k]), enumerable: true, writable: true, configurable: true });
      return o;
    }
    return v;
  };
  let lossless = 0;
  for (const [name, text] of docs) {
    if (name.startsWith('deep')) continue;       // plainNumbers and deepStrictEqual recurse
    const mine = parseFastjson(text);
    assert.deepStrictEqual(plainNumbers(mine), JSON.parse(text), name);
    if (JSON.stringify(mine, (k, x) => (typeof x === 'bigint' ? 0 : x)) !== JSON.stringify(JSON.parse(text))) lossless++;
  }
  assert.ok(lossless >= 1, 'some document has a number JSON.parse would round');
});

test('JSON.parse where it is exact, the exact parser elsewhere: the same values', () => {
  let fast = 0;
  for (const [name, text] of docs) {
    assert.equal(same(parseFastjson(text), parseFastjsonExact(text)), null, name);
    try { assert.deepStrictEqual(JSON.parse(text), parseFastjsonExact(text)); fast++; } catch { /* has exact numbers */ }
  }
  assert.ok(fast > 0);
});

test('JSON.parse is used only where it is exact', () => {
  const cases = { '[9007199254740991]': [9007199254740991], '[9007199254740992]': [9007199254740992n],
    '[1700000000000000,"1234567890123456"]': [1700000000000000, '1234567890123456'],
    '[0.1234567890123456]': [0.1234567890123456], '[0.12345678901234567]': [new LosslessNumber('0.12345678901234567')], '[1e400]': [new LosslessNumber('1e400')] };
  for (const [text, want] of Object.entries(cases)) assert.equal(same(parseFastjson(text), want), null, text);
});

test('numbers: number when the double is the value, BigInt, LosslessNumber', () => {
  const cases = { '2.50': 2.5, '1e3': 1000, '0.1': 0.1, '1.5e300': 1.5e300, '1E+22': 1e22, '-0': -0, '-0.0': -0,
    '123456789012345678901234567890': 123456789012345678901234567890n, '9007199254740993': 9007199254740993n,
    '9007199254740991': 9007199254740991 };
  for (const [text, want] of Object.entries(cases)) assert.ok(Object.is(parseNumber(text), want), text);
  for (const text of ['0.10000000000000001', '1e400', '1e-400', '123e-10000000', '1.00000000000000000001']) {
    const v = parseNumber(text);
    assert.ok(v instanceof LosslessNumber && v.value === text, text);
  }
});

test('stringifyFastjson: JSON.stringify where it applies, exact numbers, any depth', () => {
  const v = { a: [1, -0, 2.5, 'é\n"', null, true, undefined, () => 1], b: undefined, d: new Date(0), e: {}, f: [],
    big: 123456789012345678901234567890n, x: new LosslessNumber('0.10000000000000001') };
  assert.equal(stringifyFastjson(v),
    '{"a":[1,0,2.5,"é\\n\\"",null,true,null,null],"d":"1970-01-01T00:00:00.000Z","e":{},"f":[],' +
    '"big":123456789012345678901234567890,"x":0.10000000000000001}');
  const plain = { a: [1, { b: 'c' }, []], d: 'x' };
  assert.equal(stringifyFastjson(plain), JSON.stringify(plain));
  for (const bad of [NaN, Infinity, Symbol('s'), [1n, NaN]]) assert.throws(() => stringifyFastjson(bad), TypeError);
  let deep = [];
  for (let i = 0; i < 10000; i++) deep = [deep];
  assert.equal(stringifyFastjson(deep), '['.repeat(10001) + ']'.repeat(10001));
});

// fastjson for node-postgres (pg): native JavaScript values with no number lost.
//
//   import pg from 'pg';
//   import { registerFastjson, stringifyFastjson } from './fastjson_pg.mjs';
//   const client = new pg.Client();  await client.connect();
//   await registerFastjson(client);                       // once per client (or pool.on('connect'))
//   await client.query('INSERT INTO t(doc) VALUES ($1)', [stringifyFastjson(value)]);
//   const { rows } = await client.query('SELECT doc FROM t');   // rows[0].doc is a value
//
// node-postgres reads results as text (its default), so the recipe is a text
// parser for the type's OID. JSON.parse would turn 123456789012345678901234567890
// into 1.2345678901234568e+29 and 0.10000000000000001 into 0.1, so parseFastjson
// makes each number
//   - a number when it is an integer that is a safe integer (|n| <= 2^53 - 1),
//   - a BigInt when it is any other integer,
//   - a number when the double is the written value (its shortest text has the
//     same digits and exponent: 2.50, 1e3, 0.1, 1.5e300),
//   - otherwise a LosslessNumber (from lossless-json) holding the exact text
//     (0.10000000000000001, 1e400); .value is that text, and valueOf() the
//     nearest double (it throws for 1e400 and others that overflow or underflow).
// A document none of whose numbers can need that (no run of 16 or more digits
// and dots but safe integers, no exponent of 3 or more digits: every other
// number has at most 15 significant digits, which a double gives back) goes to JSON.parse,
// which then gives exactly the same values; any other to parseFastjsonExact, a
// small JSON parser. Objects are plain objects; a duplicated key keeps its last
// value, as with JSON.parse and jsonb (lossless-json's own parse throws on one,
// and fastjson keeps duplicates). stringifyFastjson writes every number back as
// the same number. Pass it the value of a fastjson parameter:
// pg itself would JSON.stringify an object, which throws on a BigInt.
//
// Binary: do not ask for it (query config binary: true) on fastjson columns.
// The server then sends the tape (doc/format.md), and node-postgres decodes
// every field as UTF-8 text before it hands a binary one over as a Buffer, so
// the tape's bytes arrive damaged. Text is pg's default and is what this reads.
import { LosslessNumber } from 'lossless-json';

export { LosslessNumber };

// "15e31" for 1.5e30 and 1.50e+30: significant digits and where the point goes
function digitsAndPoint(s) {
  const e = s.search(/[eE]/);
  let m = e < 0 ? s : s.slice(0, e);
  const exp = e < 0 ? 0 : Number(s.slice(e + 1));
  if (m[0] === '-') m = m.slice(1);
  const dot = m.indexOf('.');
  let digits = dot < 0 ? m : m.slice(0, dot) + m.slice(dot + 1);
  let point = (dot < 0 ? m.length : dot) + exp;
  const lead = digits.search(/[^0]/);
  if (lead < 0) return '0';
  digits = digits.slice(lead).replace(/0+$/, '');
  point -= lead;
  return `${digits}e${point}`;
}

export function parseNumber(text) {
  const d = Number(text);
  if (text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0) {
    return Number.isSafeInteger(d) ? d : BigInt(text);
  }
  // 16 characters with a point and no exponent: at most 15 digits, which a double holds
  if (text.length <= 16 && text.indexOf('e') < 0 && text.indexOf('E') < 0) return d;
  return Number.isFinite(d) && digitsAndPoint(text) === digitsAndPoint(String(d)) ? d : new LosslessNumber(text);
}

// Whether a number in the text may be one JSON.parse would round: a run of 16
// or more digits and dots (in a string too: that only costs time) other than
// a 16-digit safe integer, or an exponent of 3 or more digits.
const LONG = /[0-9][0-9.]{15,}|[eE][-+]?[0-9]{3}/g;

function needsCare(text) {
  LONG.lastIndex = 0;
  let m;
  while ((m = LONG.exec(text)) !== null) {
    const s = m[0];
    if (!(s.length === 16 && s.indexOf('.') < 0 && s <= '9007199254740991')) return true;
  }
  return false;
}

export function parseFastjson(text) {
  return needsCare(text) ? parseFastjsonExact(text) : JSON.parse(text);
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const WS = /[ \t\n\r]*/y;

// A JSON parser whose numbers are parseNumber's; iterative, so it reads a
// document of any depth (fastjson takes up to fastjson.max_depth, 10,000).
export function parseFastjsonExact(text) {
  let i = 0;
  const n = text.length;
  const fail = (what) => { throw new SyntaxError(`invalid JSON: ${what} at position ${i}`); };
  const ws = () => {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) { WS.lastIndex = i; WS.test(text); i = WS.lastIndex; }
  };
  const string = () => {
    const start = i++;               // at the opening quote
    for (;;) {
      const q = text.indexOf('"', i);
      if (q < 0) fail('unterminated string');
      let b = q - 1;
      while (text.charCodeAt(b) === 92) b--;        // count the backslashes before it
      i = q + 1;
      if ((q - 1 - b) % 2 === 0) break;
    }
    const raw = text.slice(start + 1, i - 1);
    return raw.indexOf('\\') < 0 ? raw : JSON.parse(text.slice(start, i));
  };
  const memberKey = () => {
    ws();
    if (text.charCodeAt(i) !== 34) fail('expected a key');
    const k = string();
    ws();
    if (text.charCodeAt(i++) !== 58) fail('expected ":"');
    return k;
  };
  const stack = [];                  // cur, key, isObj of each enclosing container
  let cur, key, isObj = false, v;
  for (;;) {
    ws();
    const c = text.charCodeAt(i);
    if (c === 34) v = string();
    else if (c === 123 || c === 91) {               // { or [
      i++; ws();
      if (text.charCodeAt(i) === (c === 123 ? 125 : 93)) { i++; v = c === 123 ? {} : []; }
      else {
        stack.push(cur, key, isObj);
        isObj = c === 123;
        cur = isObj ? {} : [];
        if (isObj) key = memberKey();
        continue;
      }
    } else if (c === 116 && text.startsWith('true', i)) { i += 4; v = true; }
    else if (c === 102 && text.startsWith('false', i)) { i += 5; v = false; }
    else if (c === 110 && text.startsWith('null', i)) { i += 4; v = null; }
    else {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) fail('unexpected character');
      const s = text.slice(i, NUMBER.lastIndex);
      i = NUMBER.lastIndex;
      v = parseNumber(s);
    }
    for (;;) {                       // v is complete: put it in its container
      if (cur === undefined) {
        ws();
        if (i !== n) fail('text after the value');
        return v;
      }
      if (!isObj) cur.push(v);
      else if (key === '__proto__') Object.defineProperty(cur, key, { value: v, enumerable: true, writable: true, configurable: true });
      else cur[key] = v;
      ws();
      const d = text.charCodeAt(i++);
      if (d === 44) {                // ,
        if (isObj) key = memberKey();
        break;
      }
      if (d !== (isObj ? 125 : 93)) fail(isObj ? 'expected "," or "}"' : 'expected "," or "]"');
      v = cur;
      isObj = stack.pop();
      key = stack.pop();
      cur = stack.pop();
    }
  }
}

// JSON text of a value: like JSON.stringify (toJSON, undefined and functions
// left out of objects and null in arrays), but BigInt and LosslessNumber are
// written as the numbers they are, NaN and infinities are refused, and any
// depth is written (iterative).
export function stringifyFastjson(value) {
  const out = [];
  const stack = [];                  // { v, keys (null for an array), i, n } of each open container
  let v = value;
  for (;;) {
    if (v !== null && typeof v === 'object' && !(v instanceof LosslessNumber) && typeof v.toJSON === 'function') v = v.toJSON();
    if (v === null) out.push('null');
    else if (typeof v === 'string') out.push(JSON.stringify(v));
    else if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new TypeError(`${v} cannot be a JSON number`);
      out.push(JSON.stringify(v));
    } else if (typeof v === 'bigint') out.push(v.toString());
    else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
    else if (v instanceof LosslessNumber) out.push(v.value);
    else if (Array.isArray(v)) { out.push('['); stack.push({ v, keys: null, i: 0, n: 0 }); }
    else if (typeof v === 'object') { out.push('{'); stack.push({ v, keys: Object.keys(v), i: 0, n: 0 }); }
    else throw new TypeError(`a ${typeof v} is not a JSON value`);
    for (;;) {                       // the next value to write, closing what is done
      if (!stack.length) return out.join('');
      const f = stack[stack.length - 1];
      if (f.keys === null) {
        if (f.i === f.v.length) { out.push(']'); stack.pop(); continue; }
        if (f.i) out.push(',');
        v = f.v[f.i++];
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') v = null;
        break;
      }
      let next = false;
      while (f.i < f.keys.length) {
        const k = f.keys[f.i++];
        const x = f.v[k];
        if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
        if (f.n++) out.push(',');
        out.push(JSON.stringify(k), ':');
        v = x;
        next = true;
        break;
      }
      if (next) break;
      out.push('}');
      stack.pop();
    }
  }
}

export async function fastjsonOid(client) {
  const { rows } = await client.query("SELECT to_regtype('fastjson')::oid AS oid");
  if (rows[0].oid === null) throw new Error('type fastjson not found: CREATE EXTENSION fastjson first');
  return rows[0].oid;
}

export async function registerFastjson(client) {
  const oid = await fastjsonOid(client);
  client.setTypeParser(oid, 'text', parseFastjson);
  return oid;
}

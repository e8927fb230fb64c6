-- CBOR (RFC 8949): fastjson_to_cbor, fastjson_from_cbor and the bytea casts.
-- The mapping is doc/cbor.md; each failing input sits next to a passing one.
\set VERBOSITY default

-- errors as a value (SQLSTATE and DETAIL), so that a table can show them
CREATE FUNCTION pg_temp.from_cbor(b bytea, substitute_null boolean DEFAULT false) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	detail text;
BEGIN
	RETURN fastjson_from_cbor(b, substitute_null)::text;
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
	RETURN SQLSTATE || ': ' || detail;
END $$;

-- ------------------------------------------------ RFC 8949 Appendix A
-- Every vector: what it decodes to; the JSON-representable ones must equal
-- the vector's "decoded" value and (where marked) encode back to its bytes.
-- (decoded is the vector's JSON text: jsonb would respell 1.0e+300 and -0.0)
CREATE TEMP TABLE appendix_a (n int, hex text, decoded text, roundtrip boolean);
INSERT INTO appendix_a VALUES
 (1, '00', '0', true), (2, '01', '1', true), (3, '0a', '10', true), (4, '17', '23', true),
 (5, '1818', '24', true), (6, '1819', '25', true), (7, '1864', '100', true),
 (8, '1903e8', '1000', true), (9, '1a000f4240', '1000000', true),
 (10, '1b000000e8d4a51000', '1000000000000', true),
 (11, '1bffffffffffffffff', '18446744073709551615', true),
 (12, 'c249010000000000000000', '18446744073709551616', true),
 (13, '3bffffffffffffffff', '-18446744073709551616', true),
 (14, 'c349010000000000000000', '-18446744073709551617', true),
 (15, '20', '-1', true), (16, '29', '-10', true), (17, '3863', '-100', true),
 (18, '3903e7', '-1000', true),
 (19, 'f90000', '0.0', true), (20, 'f98000', '-0.0', true), (21, 'f93c00', '1.0', true),
 (22, 'fb3ff199999999999a', '1.1', true), (23, 'f93e00', '1.5', true),
 (24, 'f97bff', '65504.0', true), (25, 'fa47c35000', '100000.0', true),
 (26, 'fa7f7fffff', '3.4028234663852886e+38', true),
 (27, 'fb7e37e43c8800759c', '1.0e+300', true),
 (28, 'f90001', '5.960464477539063e-08', true), (29, 'f90400', '6.103515625e-05', true),
 (30, 'f9c400', '-4.0', true), (31, 'fbc010666666666666', '-4.1', true),
 (32, 'f97c00', NULL, true), (33, 'f97e00', NULL, true), (34, 'f9fc00', NULL, true),
 (35, 'fa7f800000', NULL, false), (36, 'fa7fc00000', NULL, false), (37, 'faff800000', NULL, false),
 (38, 'fb7ff0000000000000', NULL, false), (39, 'fb7ff8000000000000', NULL, false),
 (40, 'fbfff0000000000000', NULL, false),
 (41, 'f4', 'false', true), (42, 'f5', 'true', true), (43, 'f6', 'null', true),
 (44, 'f7', NULL, true), (45, 'f0', NULL, true), (46, 'f818', NULL, true), (47, 'f8ff', NULL, true),
 (48, 'c074323031332d30332d32315432303a30343a30305a', NULL, true),
 (49, 'c11a514b67b0', NULL, true), (50, 'c1fb41d452d9ec200000', NULL, true),
 (51, 'd74401020304', NULL, true), (52, 'd818456449455446', NULL, true),
 (53, 'd82076687474703a2f2f7777772e6578616d706c652e636f6d', NULL, true),
 (54, '40', NULL, true), (55, '4401020304', NULL, true),
 (56, '60', '""', true), (57, '6161', '"a"', true), (58, '6449455446', '"IETF"', true),
 (59, '62225c', '"\"\\"', true), (60, '62c3bc', '"ü"', true), (61, '63e6b0b4', '"水"', true),
 (62, '64f0908591', '"𐅑"', true),
 (63, '80', '[]', true), (64, '83010203', '[1,2,3]', true),
 (65, '8301820203820405', '[1,[2,3],[4,5]]', true),
 (66, '98190102030405060708090a0b0c0d0e0f101112131415161718181819',
     '[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25]', true),
 (67, 'a0', '{}', true), (68, 'a201020304', NULL, true),
 (69, 'a26161016162820203', '{"a":1,"b":[2,3]}', true),
 (70, '826161a161626163', '["a",{"b":"c"}]', true),
 (71, 'a56161614161626142616361436164614461656145', '{"a":"A","b":"B","c":"C","d":"D","e":"E"}', true),
 (72, '5f42010243030405ff', NULL, false),
 (73, '7f657374726561646d696e67ff', '"streaming"', false),
 (74, '9fff', '[]', false),
 (75, '9f018202039f0405ffff', '[1,[2,3],[4,5]]', false),
 (76, '9f01820203820405ff', '[1,[2,3],[4,5]]', false),
 (77, '83018202039f0405ff', '[1,[2,3],[4,5]]', false),
 (78, '83019f0203ff820405', '[1,[2,3],[4,5]]', false),
 (79, '9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff',
     '[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25]', false),
 (80, 'bf61610161629f0203ffff', '{"a":1,"b":[2,3]}', false),
 (81, '826161bf61626163ff', '["a",{"b":"c"}]', false),
 (82, 'bf6346756ef563416d7421ff', '{"Fun":true,"Amt":-2}', false);

-- the 59 JSON-representable vectors: decoded exactly, 49 of them back to their bytes
SELECT count(*) AS decoded,
       count(*) FILTER (WHERE fastjson_from_cbor(decode(hex, 'hex'))::jsonb = decoded::jsonb) AS equal,
       count(*) FILTER (WHERE roundtrip) AS roundtrip,
       count(*) FILTER (WHERE roundtrip AND encode(fastjson_to_cbor(decoded::fastjson), 'hex') = hex) AS same_bytes
FROM appendix_a WHERE decoded IS NOT NULL;
-- each one's text (floats keep a '.0' or an exponent)
SELECT n, hex, pg_temp.from_cbor(decode(hex, 'hex')) AS fastjson
FROM appendix_a WHERE decoded IS NOT NULL ORDER BY n;
-- the 23 diagnostic vectors: the mapping, or an error; then with substitute_null
SELECT n, hex, pg_temp.from_cbor(decode(hex, 'hex')) AS fastjson,
       pg_temp.from_cbor(decode(hex, 'hex'), true) AS substitute_null
FROM appendix_a WHERE decoded IS NULL ORDER BY n;

-- ------------------------------------------------------ JSON to CBOR
-- integers: the shortest head; major types 0/1 down to -2^64, then bignums
SELECT x, encode(fastjson_to_cbor(x::fastjson), 'hex') AS cbor
FROM unnest(ARRAY['0', '23', '24', '-1', '-25', '65536', '9223372036854775807', '-9223372036854775808',
                  '9223372036854775808', '18446744073709551615', '18446744073709551616',
                  '-18446744073709551616', '-18446744073709551617', '-0',
                  '123456789012345678901234567890']) AS x;
-- non-integers: the shortest float that keeps the double the text names ...
SELECT x, encode(fastjson_to_cbor(x::fastjson), 'hex') AS cbor
FROM unnest(ARRAY['0.0', '-0.0', '1.0', '1e2', '1.5', '65504.0', '65505.0', '100000.0', '1.1', '1.10',
                  '-4.1', '1.0e+300', '5.960464477539063e-08', '1.7881393432617188e-07',
                  '3.4028234663852886e+38', '5e-324', '0.30000000000000004']) AS x;
-- ... and a decimal fraction (tag 4) when no double names it exactly
SELECT x, encode(fastjson_to_cbor(x::fastjson), 'hex') AS cbor
FROM unnest(ARRAY['0.10000000000000001', '0.3000000000000000444', '273.1500000000000000001',
                  '1e400', '-1.5e-400', '9007199254740993.0', '123456789012345678901234567890.5',
                  '1e9223372036854775807']) AS x;
SELECT fastjson_to_cbor('[1e9223372036854775808]');
SELECT fastjson_to_cbor('{"a":[0.5e-9223372036854775808]}');
-- strings, literals, containers; objects in document order, duplicates kept
SELECT encode(fastjson_to_cbor('["", "ü", true, false, null, [], {}]'), 'hex');
SELECT encode(fastjson_to_cbor('{"b":1,"a":2,"b":3}'), 'hex');
-- deterministic (RFC 8949 §4.2.1): keys sorted by their encodings (shorter first), no duplicates
SELECT encode(fastjson_to_cbor('{"b":1,"aa":2,"a":3}', deterministic => true), 'hex');
SELECT encode(fastjson_to_cbor('{"z":{"y":1,"x":2},"a":[{"d":1,"c":2}]}', true), 'hex');
SELECT fastjson_to_cbor('{"b":1,"a":2,"b":3}', deterministic => true);
SELECT fastjson_to_cbor('[{"x":{"k\u0000y":1,"b":[],"k\u0000y":2}}]', deterministic => true);
\set VERBOSITY sqlstate
SELECT fastjson_to_cbor('{"a":1,"a":1}', true);
\set VERBOSITY default

-- ------------------------------------------------------ CBOR to JSON
-- byte strings: base64url without padding; inside tag 21/22/23 as the tag says (§6.1)
SELECT hex, pg_temp.from_cbor(decode(hex, 'hex')) AS fastjson
FROM unnest(ARRAY['40', '4101', '420102', '43010203', '43fbff00', 'd54343fbff', 'd64401020304',
                  'd7440102abcd', 'd7824101a1616142ff00', 'd782d5410141ff', '5f4101420203ff']) AS hex;
-- bignums and decimal fractions become exact numbers; other tags are dropped
SELECT hex, pg_temp.from_cbor(decode(hex, 'hex')) AS fastjson
FROM unnest(ARRAY['c240', 'c340', 'c2487fffffffffffffff', 'c2488000000000000000',
                  'c3488000000000000000', 'c24a01000000000000000000', 'c25f4101420000ff',
                  'c48221196ab3', 'c4820005', 'c4820105', 'c4822505', 'c4822605', 'c4821901900f',
                  'c48220c349010000000000000000', 'c4822000', 'c49f2005ff',
                  'c4823b7fffffffffffffff01', 'c5822003', 'c6c7d40a', 'd9d9f7a1616101',
                  'db000000010000000001']) AS hex;
SELECT hex, pg_temp.from_cbor(decode(hex, 'hex')) AS fastjson
FROM unnest(ARRAY['c201', 'c2c240', 'c26161', 'c48301020f', 'c482f93c0001', 'c482016161',
                  'c48201c101', 'c49f010101ff', 'c401', 'c4821b7fffffffffffffff0a',
                  'c4821b800000000000000001']) AS hex;
-- map keys: text, or integers and bignums as their decimal text; nothing else
SELECT hex, pg_temp.from_cbor(decode(hex, 'hex')) AS fastjson
FROM unnest(ARRAY['a201020304', 'a23bffffffffffffffff011bffffffffffffffff02',
                  'a1c24901000000000000000001', 'a1c34101f6', 'a1c16161f6', 'a201016131f6',
                  'a1f401', 'a1f601', 'a1f93c0001', 'a1410101', 'a18001', 'a1f701']) AS hex;
SELECT fastjson_from_cbor('\xa1f701', substitute_null => true);
-- floats: the shortest round-trip text, never integer-shaped
SELECT hex, pg_temp.from_cbor(decode(hex, 'hex')) AS fastjson
FROM unnest(ARRAY['f90001', 'f903ff', 'fb0000000000000001', 'fb4340000000000000',
                  'fb43b0000000000000', 'fa3dcccccd', 'fb3fb999999999999a']) AS hex;
-- NaN, infinities, undefined, simple values: 22P03, or null with substitute_null
SELECT fastjson_from_cbor('\xf97e00');
SELECT fastjson_from_cbor('\x83f97c00f7f0', substitute_null => true);
SELECT fastjson_from_cbor('\xf7');
SELECT fastjson_from_cbor('\xf820');
-- text strings must be valid UTF-8, every chunk on its own (§3.2.3)
SELECT fastjson_from_cbor('\x62c3bc');
SELECT fastjson_from_cbor('\x62c328');
SELECT fastjson_from_cbor('\x7f62c3bcff');
SELECT fastjson_from_cbor('\x7f61c361bcff');
-- U+0000 is stored, as in any fastjson
SELECT fastjson_from_cbor('\x826100626100');

-- ------------------------------------------------------ hostile input
-- truncated items, declared lengths longer than the input (nothing allocated for them)
SELECT fastjson_from_cbor('\x');
SELECT fastjson_from_cbor('\x83010203');
SELECT fastjson_from_cbor('\x830102');
SELECT fastjson_from_cbor('\x9b0000000100000000');
SELECT fastjson_from_cbor('\xbbffffffffffffffff');
SELECT fastjson_from_cbor('\x5bffffffffffffffff00');
SELECT fastjson_from_cbor('\x7a7fffffff61');
SELECT fastjson_from_cbor('\xfb3ff1999999');
-- reserved additional information values, break codes out of place, trailing bytes
SELECT fastjson_from_cbor('\x1c');
SELECT fastjson_from_cbor('\x82011f');
SELECT fastjson_from_cbor('\xff');
SELECT fastjson_from_cbor('\x81ff');
SELECT fastjson_from_cbor('\xbf6161ff');
SELECT fastjson_from_cbor('\x9fc1ff');
SELECT fastjson_from_cbor('\x7f4161ff');
SELECT fastjson_from_cbor('\x0000');
SELECT fastjson_from_cbor('\x80ff');
-- nesting: fastjson.max_depth arrays and maps, not one more (54001)
SET fastjson.max_depth = 5;
SELECT fastjson_from_cbor('\x818181818100');
SELECT fastjson_from_cbor('\x81818181818100');
SELECT fastjson_from_cbor('\xa16161a16161a16161a16161a16161a0');
RESET fastjson.max_depth;
SELECT fastjson_from_cbor(decode(repeat('81', 10000) || '00', 'hex'))::text = repeat('[', 10000) || '0' || repeat(']', 10000) AS depth_10000_ok;
\set VERBOSITY sqlstate
SELECT fastjson_from_cbor(decode(repeat('81', 10001) || '00', 'hex'));
SELECT fastjson_from_cbor(decode(repeat('9f', 1000000), 'hex'));
\set VERBOSITY default
-- a long chain of tags is not nesting
SELECT fastjson_from_cbor(decode(repeat('c1', 100000) || '00', 'hex'));

-- ------------------------------------------------------------ casts
SELECT '{"a":[1,2.5,"x"]}'::fastjson::bytea;
SELECT '\xa161618301f941006178'::bytea::fastjson;
SELECT pg_typeof('[]'::fastjson::bytea), pg_typeof('\x80'::bytea::fastjson);
SELECT fastjson_to_cbor(NULL), fastjson_from_cbor(NULL), fastjson_to_cbor('[]', NULL);
-- the casts are explicit: no assignment from fastjson to bytea
CREATE TEMP TABLE blobs (b bytea);
INSERT INTO blobs VALUES ('[1]'::fastjson);
INSERT INTO blobs VALUES ('[1]'::fastjson::bytea);
SELECT b::fastjson FROM blobs;

-- --------------------------------------------------------- round trips
-- order, duplicates, integers and the form of every number survive; floats
-- come back as their shortest text; equal as jsonb
CREATE TEMP TABLE docs (doc fastjson);
INSERT INTO docs VALUES
 ('{"a":1,"b":[true,false,null],"c":{"d":"e"},"a":2}'),
 ('[0,-1,23,-24,255,-256,65535,4294967296,9223372036854775807,-9223372036854775808]'),
 ('[18446744073709551615,18446744073709551616,-18446744073709551617,99999999999999999999999999999]'),
 ('[0.5,1.0,1e2,-0,-0.0,1E400,0.10000000000000001,1.50,123.4500000000000000000,5e-324]'),
 ('{"\u0000":"\u0000","ü":"水","😀":"\n\t\"\\"}'),
 ('[[[[[]]]],{"":{"":{}}}]'),
 ('"just a string"'),
 ('12.5');
SELECT doc, fastjson_from_cbor(fastjson_to_cbor(doc)) AS back,
       fastjson_from_cbor(fastjson_to_cbor(doc))::text::jsonb = doc::text::jsonb AS equal
FROM docs WHERE doc::text NOT LIKE '%\\u0000%';
SELECT doc::text = fastjson_from_cbor(fastjson_to_cbor(doc))::text AS same_text FROM docs WHERE doc::text LIKE '%\\u0000%';
-- a large array and a large object (with a key index), both ways
SELECT fastjson_from_cbor(fastjson_to_cbor(d)) = d AS equal, octet_length(fastjson_to_cbor(d)) AS cbor_bytes
FROM (SELECT json_agg(g * 1.5)::fastjson AS d FROM generate_series(1, 100000) g) s;
SELECT fastjson_from_cbor(fastjson_to_cbor(d, true))::jsonb = d::jsonb AS equal,
       (fastjson_from_cbor(fastjson_to_cbor(d, true)) -> 'k10') AS k10
FROM (SELECT json_object_agg('k' || g, g)::fastjson AS d FROM generate_series(1, 1000) g) s;
-- records of many keys (a front key index) beside small ones at the same place: each decodes
SELECT fastjson_from_cbor(fastjson_to_cbor(d)) = d AS equal, jsonb_array_length(d::jsonb) AS records
FROM (SELECT ('[' || (SELECT json_object_agg('k' || g, g)::text FROM generate_series(1, 15) g) || ',{},'
              || (SELECT json_object_agg('k' || g, g)::text FROM generate_series(1, 20) g) || ',{"a":null},[{"b":1}]]')::fastjson AS d) s;

-- Binary send/recv: the binary form is the tape, and recv validates every byte
-- (SQLSTATE 22P03 for anything malformed).
CREATE TEMP TABLE src (id int, doc fastjson);
INSERT INTO src VALUES (1, '{"a":[1,2.5,"x"],"b":{"c":null}}'), (2, '[]'), (3, '"\u00e9"'),
	(4, '123456789012345678901234567890'), (5, (SELECT ('{' || string_agg(format('"k%s":%s', g, g), ',') || '}') FROM generate_series(1, 100) g)),
	(6, (SELECT ('{' || string_agg(format('"k%s":{"x":%s,"y":[%s],"k%s":"v"}', g, g, g, g % 3), ',') || '}') FROM generate_series(1, 30) g));
\copy src TO 'results/binary_copy.bin' WITH (FORMAT binary)
CREATE TEMP TABLE dst (id int, doc fastjson);
\copy dst FROM 'results/binary_copy.bin' WITH (FORMAT binary)
SELECT s.id, fastjson_send(s.doc) = fastjson_send(d.doc) AS same_bytes, s.doc::text = d.doc::text AS same_text
FROM src s JOIN dst d USING (id) ORDER BY id;
-- the binary form starts with the version byte
SELECT fastjson_send('[1]'), fastjson_send('{"a":"b"}'), fastjson_send('null');
-- recv rejects malformed tapes: 22P03 with a detail saying what is wrong.
-- A bytea's binary COPY form is its raw bytes, so copying a bytea column out
-- and into a fastjson column feeds those bytes to fastjson_recv.
CREATE TEMP TABLE sink (doc fastjson);
CREATE FUNCTION recv_test(b bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	st text;
	msg text;
	det text;
BEGIN
	EXECUTE format('COPY (SELECT %L::bytea) TO %L WITH (FORMAT binary)', b, current_setting('data_directory') || '/fastjson_recv_test.bin');
	EXECUTE format('COPY sink FROM %L WITH (FORMAT binary)', current_setting('data_directory') || '/fastjson_recv_test.bin');
	RETURN 'accepted: ' || (SELECT doc::text FROM sink ORDER BY ctid DESC LIMIT 1);
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
	RETURN st || ': ' || msg || ' / ' || det;
END
$$;
SELECT b, recv_test(b) FROM (VALUES
	('\x020021'::bytea),			-- 1: valid
	('\x0200c10301816121'),		-- {"a":1}: valid
	('\x050021'),					-- unknown version
	('\x030021'),					-- version 3: valid
	('\x040021'),					-- version 4 (this build's): valid
	-- {"a":1,...,"i":9}: a front key index of fingerprints only (version 4), with offsets too
	-- (version 3, and a value copied out of one into a version 4 tape), and fingerprints only
	-- in a version 3 tape
	('\x0400d52409fa5bf9bc186f2d2cdc816121816222816323816424816525816626816727816828816929'),
	('\x0300c52d09fa5bf9bc186f2d2cdc000306090c0f121518816121816222816323816424816525816626816727816828816929'),
	('\x0400c52d09fa5bf9bc186f2d2cdc000306090c0f121518816121816222816323816424816525816626816727816828816929'),
	('\x0300d52409fa5bf9bc186f2d2cdc816121816222816323816424816525816626816727816828816929'),
	('\x0400c52d09fa5bf9bc186f2d2cdc000306090d0f121518816121816222816323816424816525816626816727816828816929'),	-- offset form, a wrong offset
	('\x0400d52409fa5bf9bc186f2d2cdd816121816222816323816424816525816626816727816828816929'),	-- a wrong fingerprint
	('\x0400d12409fa5bf9bc186f2d2cdc816121816222816323816424816525816626816727816828816929'),	-- fingerprints-only bit without the index bit
	('\x0300a108028261629f03000000'),	-- ["ab", a reference to "ab"]: valid
	('\x0300a10b02826162a905019f06000000'),	-- ["ab",[a reference]]: valid, the inner array marked
	('\x0300a10b02826162a105019f06000000'),	-- the same without the mark
	('\x0300a9010121'),				-- [1] marked as holding a reference
	('\x0200a108028261629f03000000'),	-- a reference in a version 2 tape
	('\x0300a108028261629f02000000'),	-- a reference into the middle of a string
	('\x0300a108028261629f00000000'),	-- a reference to itself
	('\x0300a107028261629f030000'),	-- a reference that is truncated
	('\x0301c108018261629f03000000'),	-- a reference to a key
	('\x0300c10301816121'),			-- {"a":1} without its distinct-keys flag
	('\x0301a1010121'),				-- [1] with the distinct-keys flag
	('\x0302a1010121'),				-- a reserved flag bit
	('\x020121'),					-- reserved flag bit
	('\x0200'),					-- no value
	('\x02002121'),				-- trailing byte
	('\x02003805'),				-- 5 in a one-byte field: not the shortest form
	('\x02006135'),				-- number text "5": must be an integer
	('\x0200623031'),				-- number text "01": not a JSON number
	('\x020082c328'),				-- invalid UTF-8 in a string
	('\x0200a1010200'),			-- count 2 with one member
	('\x0200c102012121'),			-- object key that is not a string
	('\x0200e0'),					-- packed number of no characters
	('\x0200e3e100'),				-- packed "1.0": valid
	('\x0200e3f100'),				-- packed number with an invalid nibble
	('\x0200e3e110'),				-- packed number with a nonzero pad nibble
	('\x0200e105'),				-- packed "5": must be an integer
	('\x0200e2dd'),				-- packed "--": not a JSON number
	('\x0200fc03e100'),			-- packed length not in its shortest form
	('\x0200fc29000000000000000000000000000000000000000000'),	-- packed, 41 characters
	('\x020063312e30'),			-- number text "1.0": must be packed
	('\x0200a1ff0121'),			-- size runs past the end
	('\x0200c105028161816221'),	-- a number where the second key belongs
	('\x0200c102018161')		-- a key without its value
) AS t(b);
-- lookups read both forms of key index: the three {"a":1,...,"i":9} received above
SELECT substr(fastjson_send(doc)::text, 1, 8) AS head, doc->>'a' AS a, doc->'e' AS e, doc->>'i' AS i,
	doc ? 'h' AS has_h, doc ? 'j' AS has_j, doc @> '{"f":6}' AS has_f6, doc = '{"i":9,"h":8,"g":7,"f":6,"e":5,"d":4,"c":3,"b":2,"a":1}' AS eq
FROM sink WHERE doc ? 'i' ORDER BY 1;
SELECT count(*) AS stored FROM sink;

-- a value stored with another tape version is an error, never misread. A
-- binary-coercible cast from varbit stands in for a table written by another
-- build: a varbit's payload starts with its bit length as a 4-byte
-- little-endian integer, so B'1' reads as the tape 01 00 00 00 80 (version 1)
-- and B'11111' as 05 00 00 00 f8 (version 5).
CREATE CAST (varbit AS fastjson) WITHOUT FUNCTION;
SELECT (B'1'::varbit::fastjson)::text;
SELECT (B'1'::varbit::fastjson) -> 'a';
SELECT (B'1'::varbit::fastjson) = '1'::fastjson;
SELECT fastjson_typeof(B'11111'::varbit::fastjson);
-- version 2 (no references, no flags) is still read
SELECT fastjson_typeof(B'11'::varbit::fastjson);
DROP CAST (varbit AS fastjson);

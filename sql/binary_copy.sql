-- Binary send/recv: the binary form is the tape, and recv validates every byte
-- (SQLSTATE 22P03 for anything malformed).
CREATE TEMP TABLE src (id int, doc fastjson);
INSERT INTO src VALUES (1, '{"a":[1,2.5,"x"],"b":{"c":null}}'), (2, '[]'), (3, '"\u00e9"'),
	(4, '123456789012345678901234567890'), (5, (SELECT ('{' || string_agg(format('"k%s":%s', g, g), ',') || '}') FROM generate_series(1, 100) g));
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
	('\x040021'),					-- unknown version
	('\x030021'),					-- version 3 (this build's): valid
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
SELECT count(*) AS stored FROM sink;

-- a value stored with another tape version is an error, never misread. A
-- binary-coercible cast from varbit stands in for a table written by another
-- build: a varbit's payload starts with its bit length as a 4-byte
-- little-endian integer, so B'1' reads as the tape 01 00 00 00 80 (version 1)
-- and B'1111' as 04 00 00 00 f0 (version 4).
CREATE CAST (varbit AS fastjson) WITHOUT FUNCTION;
SELECT (B'1'::varbit::fastjson)::text;
SELECT (B'1'::varbit::fastjson) -> 'a';
SELECT (B'1'::varbit::fastjson) = '1'::fastjson;
SELECT fastjson_typeof(B'1111'::varbit::fastjson);
-- version 2 (no references, no flags) is still read
SELECT fastjson_typeof(B'11'::varbit::fastjson);
DROP CAST (varbit AS fastjson);

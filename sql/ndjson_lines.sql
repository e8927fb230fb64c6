-- fastjson_ndjson_lines: load newline-delimited JSON, keep the good lines,
-- see the bad ones with their SQLSTATE and error, on every version.
-- The input: test/gen_bad_ndjson.py's 1,000 lines (37 bad: truncated, lone
-- surrogate escapes, raw control characters, nesting deeper than 10,000),
-- then three lines of raw invalid UTF-8, which only bytes can carry.
\getenv abs_srcdir PG_ABS_SRCDIR
\set hex `python3 :abs_srcdir/test/gen_bad_ndjson.py --hex`
CREATE TEMP TABLE input AS
SELECT decode(:'hex', 'hex') || '\x5b22ff225d0a7b2261223a22c0af227d0a0a202020e282'::bytea AS data;
CREATE TEMP TABLE lines AS SELECT * FROM fastjson_ndjson_lines((SELECT data FROM input));
-- a row per line that is not blank (the blank line 1,002 gives none)
SELECT count(*) AS rows, count(doc) AS good, count(*) - count(doc) AS bad, max(line) AS last_line FROM lines;
SELECT sqlstate, error, count(*) FROM lines WHERE doc IS NULL GROUP BY 1, 2 ORDER BY 1, 2;
-- a few bad lines as a user sees them
SELECT line, sqlstate, error, detail FROM lines WHERE doc IS NULL ORDER BY line LIMIT 6;
SELECT line, sqlstate, error, detail FROM lines WHERE line > 1000 ORDER BY line;
-- the bad lines are exactly the generator's, by line number
\set kinds `python3 :abs_srcdir/test/gen_bad_ndjson.py --kinds | tr '\n' ','`
SELECT (SELECT array_agg(line ORDER BY line) FROM lines WHERE doc IS NULL AND line <= 1000) =
	(SELECT array_agg(split_part(k, ' ', 1)::bigint ORDER BY split_part(k, ' ', 1)::bigint)
	 FROM unnest(string_to_array(rtrim(:'kinds', ','), ',')) k) AS same_lines;
-- against jsonb, line by line: the same documents, and the same SQLSTATE for
-- every bad line but the deep ones (jsonb has no depth limit of its own)
CREATE FUNCTION pg_temp.jsonb_state(t text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	PERFORM t::jsonb;
	RETURN NULL;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END $$;
WITH text_lines AS (
	SELECT n AS line, t FROM unnest(string_to_array(convert_from(decode(:'hex', 'hex'), 'UTF8'), e'\n'))
		WITH ORDINALITY AS u(t, n) WHERE t <> '')
SELECT count(*) AS compared,
	count(*) FILTER (WHERE l.doc IS NOT NULL AND l.doc::jsonb = x.t::jsonb) AS same_doc,
	count(*) FILTER (WHERE l.doc IS NULL AND l.sqlstate = pg_temp.jsonb_state(x.t)) AS same_error,
	count(*) FILTER (WHERE l.doc IS NULL AND l.sqlstate = '54001' AND pg_temp.jsonb_state(x.t) IS NULL) AS deeper_than_limit
FROM text_lines x JOIN lines l USING (line);
-- the load: good lines into a table, bad ones kept aside
CREATE TEMP TABLE events (line bigint, doc fastjson);
CREATE TEMP TABLE rejects (line bigint, sqlstate text, error text);
WITH l AS (SELECT * FROM fastjson_ndjson_lines((SELECT data FROM input))),
	good AS (INSERT INTO events SELECT line, doc FROM l WHERE doc IS NOT NULL RETURNING 1),
	bad AS (INSERT INTO rejects SELECT line, sqlstate, error FROM l WHERE doc IS NULL RETURNING 1)
SELECT (SELECT count(*) FROM good) AS loaded, (SELECT count(*) FROM bad) AS rejected;
SELECT count(*) FILTER (WHERE (doc ->> 'seq')::bigint = line) AS seq_is_line FROM events;
-- text input: the same, and a text line holds only valid UTF-8
SELECT count(*), count(doc) FROM fastjson_ndjson_lines(e'{"a":1}\n\n[1,\n  "x"\n{"b":}');
SELECT * FROM fastjson_ndjson_lines(e'{"a":1}\n\n[1,\n  "x"\n{"b":}');
SELECT * FROM fastjson_ndjson_lines('');
-- fastjson_ndjson still stops at the first bad line, naming it
SELECT count(*) FROM fastjson_ndjson((SELECT data FROM input));

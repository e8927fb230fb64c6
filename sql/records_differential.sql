-- Differential: fastjson_populate_record, fastjson_populate_recordset,
-- fastjson_to_record and fastjson_to_recordset against jsonb's twins on
-- generated row types and generated documents.
--
-- Row types: random columns of int, bigint, numeric, numeric(6,2), text,
-- varchar(6), boolean, date, timestamp, json, jsonb, fastjson, int[],
-- int[][], text[], numeric[], fastjson[], domains with CHECK constraints
-- (over int, text, numeric(6,2), int[], fastjson), a NOT NULL domain, earlier
-- generated row types (nested composites, arrays of them) and domains over
-- them (the first column not null, unless all are). Each type fastjson_rN has a twin jsonb_rN, the same but for jsonb in
-- place of fastjson, whose rows jsonb's functions fill.
--
-- Documents: objects with the type's keys, some missing, some JSON null,
-- some duplicated (a junk value first), extra keys; values of the right
-- shape or not: numbers in several spellings (1, 1.0, 1e2, -0, 1E+2, 10e-1),
-- strings for numbers, arrays of one and two dimensions, ragged and mixed
-- arrays, array and row literals as strings, containers for scalars.
--
-- Each function gets each document (populate_record from a NULL base and
-- from a base record; recordsets of one to three documents, sometimes with a
-- non-object element, sometimes a non-array). Results are compared as
-- to_jsonb(row)::text (exact for numbers, text, dates, arrays; JSON columns
-- as jsonb); errors by SQLSTATE and by message (jsonb read as fastjson).
\i sql/include/random_docs.sql
SELECT setseed(0.1977);

\i sql/include/records_gen.sql

-- Every case, run on both.
CREATE TEMP TABLE rd_cases AS
SELECT d.k, d.g, c.fn,
	format(c.q, 'fastjson', d.k, quote_literal(d.doc), quote_literal(d.docs), rd_coldefs(('fastjson_r' || d.k)::regtype),
		coalesce(quote_literal(b.base_f), 'NULL')) AS fq,
	format(c.q, 'jsonb', d.k, quote_literal(d.doc), quote_literal(d.docs), rd_coldefs(('jsonb_r' || d.k)::regtype),
		coalesce(quote_literal(b.base_j), 'NULL')) AS jq
FROM rd_docs d JOIN rd_base b USING (k), (VALUES
	('populate_record', 'SELECT to_jsonb(%1$s_populate_record(NULL::%1$s_r%2$s, %3$s))::text'),
	('populate_record base', 'SELECT to_jsonb(%1$s_populate_record(%6$s::%1$s_r%2$s, %3$s))::text'),
	('populate_record domain', 'SELECT to_jsonb(%1$s_populate_record(NULL::%1$s_r%2$s_d, %3$s))::text'),
	('to_record', 'SELECT to_jsonb(t)::text FROM %1$s_to_record(%3$s) AS t(%5$s)'),
	('populate_recordset', 'SELECT string_agg(to_jsonb(r)::text, '' | '') FROM %1$s_populate_recordset(NULL::%1$s_r%2$s, %4$s) r'),
	('populate_recordset base', 'SELECT string_agg(to_jsonb(r)::text, '' | '') FROM %1$s_populate_recordset(%6$s::%1$s_r%2$s, %4$s) r'),
	('to_recordset', 'SELECT string_agg(to_jsonb(t)::text, '' | '') FROM %1$s_to_recordset(%4$s) AS t(%5$s)')
) AS c(fn, q);
CREATE TEMP TABLE rd_results AS SELECT k, g, fn, rd_try(fq) AS f, rd_try(jq) AS j FROM rd_cases;

-- The counts: every case, its errors, and the differences (0 expected)
SELECT fn, count(*) AS cases, count(*) FILTER (WHERE j NOT LIKE 'ERROR%') AS rows_made,
	count(*) FILTER (WHERE j LIKE 'ERROR%') AS errors,
	count(*) FILTER (WHERE (f LIKE 'ERROR%' OR j LIKE 'ERROR%') AND substr(f, 1, 11) IS DISTINCT FROM substr(j, 1, 11)) AS sqlstate_differences,
	count(*) FILTER (WHERE f IS DISTINCT FROM j) AS differences
FROM rd_results GROUP BY fn ORDER BY fn;
SELECT CASE WHEN d.bad = 0 THEN 'clean' ELSE 'noisy' END AS documents, count(*) AS cases,
	count(*) FILTER (WHERE j NOT LIKE 'ERROR%') AS rows_made, count(*) FILTER (WHERE f IS DISTINCT FROM j) AS differences
FROM rd_results r JOIN rd_docs d USING (k, g) GROUP BY 1 ORDER BY 1;
SELECT count(*) AS cases, count(*) FILTER (WHERE f IS DISTINCT FROM j) AS differences FROM rd_results;
SELECT * FROM rd_results WHERE f IS DISTINCT FROM j ORDER BY k, g, fn LIMIT 10;
-- the errors seen, by SQLSTATE (both sides agree on each)
SELECT substr(j, 7, 5) AS sqlstate, count(*) AS cases, count(DISTINCT regexp_replace(j, '"[^"]*"', '"…"', 'g')) AS messages
FROM rd_results WHERE j LIKE 'ERROR%' GROUP BY 1 ORDER BY 1;

-- The same documents again, a type at a time in one query (one call site,
-- its caches kept across rows): every document both turned into rows.
CREATE FUNCTION rd_set_differences() RETURNS TABLE (rows bigint, differences bigint) LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
	dn bigint;
BEGIN
	rows := 0; differences := 0;
	FOR kk IN 1..14 LOOP
		EXECUTE format('SELECT count(*), count(*) FILTER (WHERE
				to_jsonb(fastjson_populate_record(NULL::fastjson_r%1$s, d.doc::fastjson))::text
				IS DISTINCT FROM to_jsonb(jsonb_populate_record(NULL::jsonb_r%1$s, d.doc::jsonb))::text)
			FROM rd_docs d JOIN rd_results r USING (k, g)
			WHERE d.k = %1$s AND r.fn = ''populate_record'' AND r.j NOT LIKE ''ERROR%%''', kk) INTO n, dn;
		rows := rows + n; differences := differences + dn;
		EXECUTE format('SELECT count(*), count(*) FILTER (WHERE f.t IS DISTINCT FROM j.t)
			FROM (SELECT row_number() OVER (ORDER BY d.g) AS i, to_jsonb(t)::text AS t
					FROM rd_docs d JOIN rd_results r USING (k, g), fastjson_to_recordset(d.docs::fastjson) AS t(%2$s)
					WHERE d.k = %1$s AND r.fn = ''to_recordset'' AND r.j NOT LIKE ''ERROR%%'') f
			FULL JOIN (SELECT row_number() OVER (ORDER BY d.g) AS i, to_jsonb(t)::text AS t
					FROM rd_docs d JOIN rd_results r USING (k, g), jsonb_to_recordset(d.docs::jsonb) AS t(%3$s)
					WHERE d.k = %1$s AND r.fn = ''to_recordset'' AND r.j NOT LIKE ''ERROR%%'') j USING (i)', kk,
			rd_coldefs(('fastjson_r' || kk)::regtype), rd_coldefs(('jsonb_r' || kk)::regtype)) INTO n, dn;
		rows := rows + n; differences := differences + dn;
	END LOOP;
	RETURN NEXT;
END $$;
SELECT * FROM rd_set_differences();

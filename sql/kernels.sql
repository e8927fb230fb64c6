-- Every SIMD kernel this CPU supports, forced through fastjson.simd, gives
-- byte-identical results to the scalar kernel, in parsing and in text output
-- (the output is the same on any machine: only agreement is shown).
SELECT count(*) > 0 AS has_scalar FROM fastjson_simd_kernels() WHERE name = 'scalar' AND supported;
CREATE TEMP TABLE inputs (id serial, txt text);
INSERT INTO inputs(txt) VALUES
	('{"a":1,"b":[true,false,null],"c":"\u00e9\ud83d\ude00 \"quoted\" \\ slash\/"}'),
	('[1, 1.0, -0, 1e400, 123456789012345678901234567890, -9223372036854775808]'),
	(repeat('[', 300) || repeat(']', 300)),
	('{' || (SELECT string_agg(format('"k%s":"%s"', g, repeat('x', g % 70)), ',') FROM generate_series(1, 400) g) || '}'),
	(repeat(' ', 70) || '"' || repeat('\\', 63) || '\"' || repeat('y', 100) || '"'),
	('[1,2'), ('{"a":"\ud800"}'), ('["a' || chr(9) || 'b"]'), ('[1,]');
CREATE TEMP TABLE results (kernel text, id int, ok boolean, result bytea, txt text, pretty text);
CREATE FUNCTION parse_all(k text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	r record;
	st text;
	msg text;
BEGIN
	PERFORM set_config('fastjson.simd', k, true);
	FOR r IN SELECT * FROM inputs LOOP
		BEGIN
			INSERT INTO results VALUES (k, r.id, true, fastjson_send(r.txt::fastjson), r.txt::fastjson::text,
				fastjson_pretty(r.txt::fastjson));
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
			INSERT INTO results VALUES (k, r.id, false, convert_to(st || msg, 'UTF8'));
		END;
	END LOOP;
END
$$;
SELECT count(*) AS kernels_run FROM (SELECT parse_all(name) FROM fastjson_simd_kernels() WHERE supported) s;
-- every kernel agrees with scalar on every input (tape bytes, text and indented text, or
-- SQLSTATE and message)
SELECT count(*) AS disagreements
FROM results r JOIN results s ON s.kernel = 'scalar' AND s.id = r.id
WHERE r.ok <> s.ok OR r.result <> s.result OR r.txt IS DISTINCT FROM s.txt OR r.pretty IS DISTINCT FROM s.pretty;
SELECT id, ok FROM results WHERE kernel = 'scalar' ORDER BY id;
-- the setting shows in fastjson_simd_kernel()
SET fastjson.simd = 'scalar';
SELECT fastjson_simd_kernel();
RESET fastjson.simd;
SELECT fastjson_simd_kernel() = (SELECT name FROM fastjson_simd_kernels() WHERE supported LIMIT 1) AS auto_is_best;

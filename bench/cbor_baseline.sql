-- bench/cbor_baseline.sql — a jsonb-based CBOR conversion written in SQL/PL/pgSQL.
--
-- The reference that the targets (doc/design.md) ask fastjson's CBOR functions to beat by
-- 10x: what a user without fastjson could write. bench/server_bench.py loads it into the
-- benchmark database only (never into the extension).
--
--   bench_jsonb_to_cbor(jsonb) -> bytea   JSON to CBOR: shortest integer heads, definite
--                                         lengths, every non-integer (and every integer
--                                         outside int64) as a float64 (0xfb); keys in
--                                         jsonb's order. Simplified on purpose: no
--                                         shortest-float choice, no bignums.
--   bench_cbor_to_jsonb(bytea) -> jsonb   CBOR to JSON: unsigned/negative integers,
--                                         byte strings (base64url), text strings, arrays,
--                                         maps (text or integer keys), tags 2/3 (bignums)
--                                         and 4 (decimal fractions) to exact numbers,
--                                         other tags dropped (content kept), false/true/
--                                         null/undefined, float16/32/64. Indefinite
--                                         lengths and NaN/Infinity are errors.

-- The head of a data item: major type and argument n (0 <= n < 2^63), shortest form.
CREATE OR REPLACE FUNCTION bench_cbor_head(major int, n bigint) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT CASE
        WHEN n < 24 THEN set_byte('\x00'::bytea, 0, major * 32 + n::int)
        WHEN n < 256 THEN set_byte('\x00'::bytea, 0, major * 32 + 24)
                          || set_byte('\x00'::bytea, 0, n::int)
        WHEN n < 65536 THEN set_byte('\x00'::bytea, 0, major * 32 + 25)
                            || substring(int4send(n::int) FROM 3)
        WHEN n < 4294967296 THEN set_byte('\x00'::bytea, 0, major * 32 + 26)
                                 || substring(int8send(n) FROM 5)
        ELSE set_byte('\x00'::bytea, 0, major * 32 + 27) || int8send(n)
    END
$$;

-- A CBOR text string.
CREATE OR REPLACE FUNCTION bench_cbor_text(s text) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT bench_cbor_head(3, octet_length(s)) || convert_to(s, 'UTF8')
$$;

-- JSON (as jsonb) to CBOR, recursively.
CREATE OR REPLACE FUNCTION bench_jsonb_to_cbor(j jsonb) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    t text := jsonb_typeof(j);
    r bytea;
    num numeric;
BEGIN
    IF t = 'object' THEN
        -- aggregates over a plain function scan see its rows in order
        SELECT bench_cbor_head(5, count(*))
               || coalesce(string_agg(bench_cbor_text(e.k) || bench_jsonb_to_cbor(e.v), ''::bytea), ''::bytea)
          INTO r FROM jsonb_each(j) AS e(k, v);
        RETURN r;
    ELSIF t = 'array' THEN
        SELECT bench_cbor_head(4, count(*))
               || coalesce(string_agg(bench_jsonb_to_cbor(e.v), ''::bytea), ''::bytea)
          INTO r FROM jsonb_array_elements(j) AS e(v);
        RETURN r;
    ELSIF t = 'string' THEN
        RETURN bench_cbor_text(j #>> '{}');
    ELSIF t = 'number' THEN
        num := j::numeric;
        IF num = trunc(num) AND num BETWEEN -9223372036854775808 AND 9223372036854775807 THEN
            IF num >= 0 THEN
                RETURN bench_cbor_head(0, num::bigint);
            END IF;
            RETURN bench_cbor_head(1, (-1 - num)::bigint);
        END IF;
        RETURN '\xfb'::bytea || float8send(num::float8);
    ELSIF t = 'boolean' THEN
        RETURN CASE WHEN j::boolean THEN '\xf5'::bytea ELSE '\xf4'::bytea END;
    END IF;
    RETURN '\xf6'::bytea;
END
$$;

-- Read an unsigned big-endian integer of len bytes at pos (0-based).
CREATE OR REPLACE FUNCTION bench_cbor_uint(b bytea, pos int, len int) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    n numeric := 0;
BEGIN
    FOR i IN 0 .. len - 1 LOOP
        n := n * 256 + get_byte(b, pos + i);
    END LOOP;
    RETURN n;
END
$$;

-- Decode one data item at pos (0-based); returns the position after it and its value.
CREATE OR REPLACE FUNCTION bench_cbor_item(b bytea, INOUT pos int, OUT val jsonb)
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    ib int;
    major int;
    info int;
    n numeric;
    bits bigint;
    e int;
    m bigint;
    f float8;
    r record;
    vals jsonb[];
    keys text[];
BEGIN
    ib := get_byte(b, pos);
    pos := pos + 1;
    major := ib >> 5;
    info := ib & 31;
    IF major = 7 THEN
        IF info = 20 THEN val := 'false'; RETURN; END IF;
        IF info = 21 THEN val := 'true'; RETURN; END IF;
        IF info = 22 OR info = 23 THEN val := 'null'; RETURN; END IF;
        IF info = 25 THEN          -- float16
            bits := get_byte(b, pos) * 256 + get_byte(b, pos + 1);
            pos := pos + 2;
            e := (bits >> 10) & 31;
            m := bits & 1023;
            IF e = 31 THEN RAISE EXCEPTION 'CBOR NaN/Infinity has no JSON form'; END IF;
            f := CASE WHEN e = 0 THEN m * power(2::float8, -24)
                      ELSE (1024 + m) * power(2::float8, e - 25) END;
        ELSIF info = 26 THEN       -- float32
            bits := bench_cbor_uint(b, pos, 4)::bigint;
            pos := pos + 4;
            e := (bits >> 23) & 255;
            m := bits & 8388607;
            IF e = 255 THEN RAISE EXCEPTION 'CBOR NaN/Infinity has no JSON form'; END IF;
            f := CASE WHEN e = 0 THEN m * power(2::float8, -149)
                      ELSE (8388608 + m) * power(2::float8, e - 150) END;
        ELSIF info = 27 THEN       -- float64
            e := ((get_byte(b, pos) & 127) << 4) | (get_byte(b, pos + 1) >> 4);
            m := ((get_byte(b, pos + 1) & 15)::bigint << 48) | bench_cbor_uint(b, pos + 2, 6)::bigint;
            IF e = 2047 THEN RAISE EXCEPTION 'CBOR NaN/Infinity has no JSON form'; END IF;
            f := CASE WHEN e = 0 THEN m * power(2::float8, -1074)
                      ELSE (4503599627370496 + m) * power(2::float8, e - 1075) END;
            bits := get_byte(b, pos) >> 7;
            pos := pos + 8;
            IF bits = 1 THEN f := -f; END IF;
            val := to_jsonb(f);
            RETURN;
        ELSE
            RAISE EXCEPTION 'unsupported CBOR simple value %', info;
        END IF;
        IF (ib = 249 AND (bits >> 15) = 1) OR (ib = 250 AND (bits >> 31) = 1) THEN
            f := -f;
        END IF;
        val := to_jsonb(f);
        RETURN;
    END IF;

    IF info < 24 THEN
        n := info;
    ELSIF info < 28 THEN
        n := bench_cbor_uint(b, pos, 1 << (info - 24));
        pos := pos + (1 << (info - 24));
    ELSE
        RAISE EXCEPTION 'indefinite or reserved CBOR length (additional info %)', info;
    END IF;

    IF major = 0 THEN
        val := to_jsonb(n);
    ELSIF major = 1 THEN
        val := to_jsonb(-1 - n);
    ELSIF major = 2 THEN
        val := to_jsonb(rtrim(translate(encode(substring(b FROM pos + 1 FOR n::int), 'base64'),
                                        E'+/\n', '-_'), '='));
        pos := pos + n::int;
    ELSIF major = 3 THEN
        val := to_jsonb(convert_from(substring(b FROM pos + 1 FOR n::int), 'UTF8'));
        pos := pos + n::int;
    ELSIF major = 4 THEN
        vals := '{}';
        FOR i IN 1 .. n LOOP
            r := bench_cbor_item(b, pos);
            pos := r.pos;
            vals := vals || r.val;
        END LOOP;
        val := to_jsonb(vals);
    ELSIF major = 5 THEN
        vals := '{}';
        keys := '{}';
        FOR i IN 1 .. n LOOP
            r := bench_cbor_item(b, pos);
            pos := r.pos;
            IF jsonb_typeof(r.val) NOT IN ('string', 'number') THEN
                RAISE EXCEPTION 'CBOR map key of type % has no JSON form', jsonb_typeof(r.val);
            END IF;
            keys := keys || (r.val #>> '{}');
            r := bench_cbor_item(b, pos);
            pos := r.pos;
            vals := vals || r.val;
        END LOOP;
        SELECT coalesce(jsonb_object_agg(u.k, u.v), '{}'::jsonb) INTO val
          FROM unnest(keys, vals) AS u(k, v);
    ELSE   -- major 6: a tag
        IF n = 2 OR n = 3 THEN       -- bignum: a byte string holding the magnitude
            ib := get_byte(b, pos);
            info := ib & 31;
            IF ib >> 5 <> 2 OR info > 27 THEN
                RAISE EXCEPTION 'CBOR bignum without a definite byte string';
            END IF;
            IF info < 24 THEN
                e := info;
                pos := pos + 1;
            ELSE
                e := bench_cbor_uint(b, pos + 1, 1 << (info - 24))::int;
                pos := pos + 1 + (1 << (info - 24));
            END IF;
            val := to_jsonb(CASE WHEN n = 2 THEN bench_cbor_uint(b, pos, e)
                                 ELSE -1 - bench_cbor_uint(b, pos, e) END);
            pos := pos + e;
        ELSIF n = 4 THEN             -- decimal fraction [exponent, mantissa]
            IF get_byte(b, pos) <> 130 THEN RAISE EXCEPTION 'CBOR decimal fraction is not a 2-array'; END IF;
            r := bench_cbor_item(b, pos + 1);
            e := (r.val)::int;
            r := bench_cbor_item(b, r.pos);
            pos := r.pos;
            -- mantissa e exponent, read as numeric text: exact (power(10, e) of a
            -- negative e keeps only 16 digits, so 4([-18, m]) would come out 0)
            val := to_jsonb(((r.val)::text || 'e' || e)::numeric);
        ELSE
            r := bench_cbor_item(b, pos);
            pos := r.pos;
            val := r.val;
        END IF;
    END IF;
END
$$;

-- CBOR to JSON (as jsonb); the whole input must be one data item.
CREATE OR REPLACE FUNCTION bench_cbor_to_jsonb(b bytea) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    r record;
BEGIN
    r := bench_cbor_item(b, 0);
    IF r.pos <> octet_length(b) THEN
        RAISE EXCEPTION 'trailing bytes after the CBOR item (% of %)', r.pos, octet_length(b);
    END IF;
    RETURN r.val;
END
$$;

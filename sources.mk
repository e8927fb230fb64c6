# sources.mk — the one list of fastjson's C sources, included by the Makefile
# (the extension, PGXS), core.mk (the core and its tests outside the server)
# and fuzz.mk (the libFuzzer targets).

# The core: plain C, no PostgreSQL headers (src/fj_core.h).
CORE_SRC := src/error.c src/buffer.c src/parser.c \
	src/tape_reader.c src/tape_writer.c src/tape_builder.c src/tape_validator.c \
	src/string_refs.c src/pglz_prefix.c src/text_pretty.c src/utf8.c \
	src/simd/dispatch.c src/simd/scalar.c src/simd/avx2.c src/simd/avx512.c src/simd/neon.c

# Core too, but needing libraries the ARM64 cross build lacks: the CBOR mapping
# (libcbor) and the stored form of large tapes (LZ4).
CBOR_SRC := src/cbor_number.c src/cbor_encode.c src/cbor_decode.c
STORE_SRC := src/tape_store.c

# The SQL layer: the extension's functions, the only code that uses PostgreSQL.
SQL_SRC := src/fastjson_module.c src/fastjson_io.c src/fastjson_extract.c src/fastjson_toast.c src/fastjson_ndjson.c \
	src/fastjson_compare.c src/fastjson_contain.c src/fastjson_funcs.c src/fastjson_build.c \
	src/fastjson_agg.c src/fastjson_cast.c src/fastjson_edit.c src/fastjson_subscript.c \
	src/fastjson_gin.c src/fastjson_cbor.c src/fastjson_store.c src/fastjson_record.c src/fastjson_simplify.c \
	src/fastjson_path_exec.c src/fastjson_path_method.c src/fastjson_path_sql.c src/fastjson_tsearch.c

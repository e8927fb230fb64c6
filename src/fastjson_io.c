/*
 * fastjson_io.c — the fastjson type's input and output: text in/out, binary
 * send/recv (the tape itself, validated on the way in), casts to and from
 * text, json and jsonb, fastjson_valid and fastjson_from_utf8.
 */
#include "fastjson.h"
#include "utf8.h"

#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"


/* ------------------------------------------------------------- errors */

/* Length of the token starting at p (at least one byte, at most 40). */
static size_t
token_length(const char *p, size_t left)
{
	size_t		n = 0;

	if (left == 0)
		return 0;
	if (strchr("{}[],:\"", p[0]) != NULL)
		return 1;
	while (n < left && n < 40 && strchr("{}[],:\" \t\n\r", p[n]) == NULL)
		n++;
	return n ? n : 1;
}

/* The longest prefix of p[0..n) that is valid UTF-8 and has no NUL bytes. */
static size_t
printable_prefix(const char *p, size_t n)
{
	size_t		ok = fj_utf8_first_error((const uint8_t *) p, n);
	const char *nul = memchr(p, '\0', ok);

	return nul ? (size_t) (nul - p) : ok;
}

/* A byte that jsonb's lexer scans as part of a word (JSON_ALPHANUMERIC_CHAR). */
static inline bool
word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		c == '_' || c >= 0x80;
}

#define DETAIL_TOKEN_MAX 200	/* longer tokens are not quoted in full */

/*
 * jsonb's lexer on a number at s: the length of the token it reads (a
 * number by the grammar as far as it goes, then any word bytes after it),
 * and whether that token is invalid.
 */
static size_t
lex_number(const unsigned char *s, size_t left, bool *invalid)
{
	size_t		n = s[0] == '-' ? 1 : 0;

	*invalid = false;
	if (n < left && s[n] == '0')
		n++;
	else if (n < left && s[n] >= '1' && s[n] <= '9')
		while (n < left && s[n] >= '0' && s[n] <= '9')
			n++;
	else
		*invalid = true;
	if (n < left && s[n] == '.')
	{
		if (++n == left || s[n] < '0' || s[n] > '9')
			*invalid = true;
		while (n < left && s[n] >= '0' && s[n] <= '9')
			n++;
	}
	if (n < left && (s[n] == 'e' || s[n] == 'E'))
	{
		if (++n < left && (s[n] == '+' || s[n] == '-'))
			n++;
		if (n == left || s[n] < '0' || s[n] > '9')
			*invalid = true;
		while (n < left && s[n] >= '0' && s[n] <= '9')
			n++;
	}
	for (; n < left && word_byte(s[n]); n++)
		*invalid = true;
	return n;
}

/*
 * jsonb's lexer on a scalar at s: a number (lex_number), or a word, which is
 * invalid unless it is true, false or null. Returns the token's length (0 if
 * s[0] starts no word).
 */
static size_t
lex_scalar(const unsigned char *s, size_t left, bool *invalid)
{
	size_t		n = 0;

	if (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))
		return lex_number(s, left, invalid);
	while (n < left && word_byte(s[n]))
		n++;
	*invalid = !((n == 4 && memcmp(s, "true", 4) == 0) || (n == 5 && memcmp(s, "false", 5) == 0) ||
				 (n == 4 && memcmp(s, "null", 4) == 0));
	return n;
}

/* The innermost container open at byte at ('{', '[' or 0 at the top level). */
static char
open_container(const char *json, size_t at)
{
	fj_buf		stack = {0};
	size_t		i;
	bool		in_string = false;
	char		top;

	for (i = 0; i < at; i++)
	{
		char		c = json[i];

		if (in_string)
		{
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
		}
		else if (c == '"')
			in_string = true;
		else if (c == '{' || c == '[')
			*(char *) fastjson_buf_push(&stack, 1) = c;
		else if ((c == '}' || c == ']') && stack.len > 0)
			stack.len--;
	}
	top = stack.len ? (char) stack.data[stack.len - 1] : 0;
	fj_buf_release(&fastjson_palloc_allocator, &stack);
	return top;
}

/* Where the string that byte at lies in starts (its opening quote). */
static size_t
string_start(const char *json, size_t at)
{
	size_t		i,
				start = 0;
	bool		in_string = false;

	for (i = 0; i < at; i++)
	{
		if (in_string && json[i] == '\\')
			i++;
		else if (json[i] == '"')
		{
			in_string = !in_string;
			start = i;
		}
	}
	return start;
}

#define LOW_SURROGATE_DETAIL "Unicode low surrogate must follow a high surrogate."
#define HIGH_SURROGATE_DETAIL "Unicode high surrogate must not follow a high surrogate."

/* The value of a hex digit. */
static inline unsigned
hex_value(unsigned char c)
{
	return isdigit(c) ? (unsigned) (c - '0') : (unsigned) ((c | 0x20) - 'a' + 10);
}

/*
 * The first error jsonb's lexer finds in the string starting (at its
 * opening quote) at s, of which left bytes are there: its DETAIL, or NULL
 * with *end at the closing quote (left if there is none).
 */
static char *
string_error(const unsigned char *s, size_t left, size_t *end)
{
	size_t		n;
	bool		high = false;	/* a high surrogate escape waits for its low one */

	for (n = 1; n < left && s[n] != '"'; n++)
	{
		if (s[n] != '\\')
		{
			if (high)
				return pstrdup(LOW_SURROGATE_DETAIL);
			if (s[n] < 0x20)
				return psprintf("Character with value 0x%02x must be escaped.", s[n]);
			continue;
		}
		if (n + 1 >= left)
			continue;
		if (s[++n] == 'u')
		{
			size_t		k;
			unsigned	cp = 0;

			for (k = 1; k <= 4 && n + k < left; k++)
			{
				if (!isxdigit(s[n + k]))
					return pstrdup(fj_reason_table[FJ_R_HEX].message);
				cp = cp * 16 + hex_value(s[n + k]);
			}
			n += 4;
			if (cp >= 0xd800 && cp <= 0xdbff)
			{
				if (high)
					return pstrdup(HIGH_SURROGATE_DETAIL);
				high = true;
			}
			else if (cp >= 0xdc00 && cp <= 0xdfff)
			{
				if (!high)
					return pstrdup(LOW_SURROGATE_DETAIL);
				high = false;
			}
			else if (high)
				return pstrdup(LOW_SURROGATE_DETAIL);
		}
		else if (high)
			return pstrdup(LOW_SURROGATE_DETAIL);
		else if (s[n] < 0x20 || strchr("\"\\/bfnrt", s[n]) == NULL)
		{
			size_t		e = n + 1;

			while (e < left && e < n + 4 && (s[e] & 0xc0) == 0x80)
				e++;
			if (printable_prefix((const char *) s + n - 1, e - n + 1) < e - n + 1)
				return pstrdup(fj_reason_table[FJ_R_ESCAPE].message);
			return psprintf("Escape sequence \"%.*s\" is invalid.", (int) (e - n + 1), (const char *) s + n - 1);
		}
	}
	if (high && n < left)
		return pstrdup(LOW_SURROGATE_DETAIL);
	*end = n < left ? n : left;
	return NULL;
}

/*
 * The DETAIL of a syntax error, in jsonb's words. jsonb's lexer reads the
 * token at the error first: a valid token of the wrong kind is named
 * ("Expected \":\", but found \"]\"."), anything else is an invalid token
 * ("Token \"tru\" is invalid.", one character if it starts no word). The
 * core's message is kept where it says more (strings, escapes) or where the
 * token cannot be printed.
 */
/* What jsonb's lexer says it expected where the core stopped with reason, or NULL. */
static const char *
expected_token(fj_reason reason)
{
	switch (reason)
	{
		case FJ_R_VALUE:
			return "JSON value";
		case FJ_R_KEY:
			return "string";
		case FJ_R_COLON:
			return "\":\"";
		case FJ_R_ARRAY_NEXT:
			return "\",\" or \"]\"";
		case FJ_R_OBJECT_NEXT:
			return "\",\" or \"}\"";
		case FJ_R_TRAILING:
			return "end of input";
		default:
			return NULL;
	}
}

static char *
syntax_detail(fj_reason reason, const char *json, size_t len, size_t at)
{
	const char *message = fj_reason_table[reason].message;
	const char *expected = expected_token(reason);
	const unsigned char *s;
	size_t		left,
				n = 0;
	bool		invalid = false;

	if (at >= len)
		return expected ? psprintf("Expected %s.", expected) : pstrdup(message);
	s = (const unsigned char *) json + at;
	left = len - at;
	if (reason == FJ_R_HIGH_SURROGATE || reason == FJ_R_LOW_SURROGATE || reason == FJ_R_UNTERMINATED)
	{
		/* jsonb's lexer reads the whole string from its opening quote */
		size_t		start = string_start(json, at + 1),
					end;
		const unsigned char *q = (const unsigned char *) json + start;
		char	   *e = string_error(q, len - start, &end);

		if (e)
			return e;
		/* no closing quote: jsonb quotes the rest of the input as an invalid token */
		if (end >= len - start && len - start <= DETAIL_TOKEN_MAX &&
			printable_prefix((const char *) q, len - start) == len - start)
			return psprintf("Token \"%.*s\" is invalid.", (int) (len - start), (const char *) q);
		return pstrdup(message);
	}
	if (reason == FJ_R_NUMBER || reason == FJ_R_LITERAL)
	{
		/*
		 * The core stops at a number or literal that something may not
		 * follow. If jsonb's lexer reads it as a valid token, the error is
		 * the token after it, in the context of the open container.
		 */
		n = lex_scalar(s, left, &invalid);
		if (!invalid && n < left)
		{
			char		c = open_container(json, at);

			s += n;
			left -= n;
			n = 0;
			expected = expected_token(c == '[' ? FJ_R_ARRAY_NEXT : c == '{' ? FJ_R_OBJECT_NEXT : FJ_R_TRAILING);
		}
		else
		{
			if (n == 0)
				n = 1;
			invalid = true;
		}
	}
	else if (reason == FJ_R_KEY)
	{
		/* right after "{", jsonb names the "}" too */
		size_t		b = at;

		while (b > 0 && json[b - 1] != '\0' && strchr(" \t\n\r", json[b - 1]) != NULL)
			b--;
		if (b > 0 && json[b - 1] == '{')
			expected = "string or \"}\"";
	}
	if (n == 0 && expected)
	{
		if (s[0] != '\0' && strchr("{}[],:", s[0]) != NULL)
			n = 1;
		else if (s[0] == '"')
		{
			/* a string: jsonb's lexer reports its own errors first */
			char	   *e = string_error(s, left, &n);

			if (e)
				return e;
			/* jsonb quotes the rest of the input as an invalid token here */
			if (n >= left)
				return pstrdup(fj_reason_table[FJ_R_UNTERMINATED].message);
			n++;
		}
		else if ((n = lex_scalar(s, left, &invalid)) == 0)
			n = 1;				/* a byte that starts no word: jsonb quotes it alone */
	}
	else if (n == 0 && reason == FJ_R_ESCAPE && left >= 2 && s[0] == '\\')
	{
		/* the backslash and the character after it */
		n = 2;
		while (n < left && n < 5 && (s[n] & 0xc0) == 0x80)
			n++;
		if (n <= DETAIL_TOKEN_MAX && printable_prefix((const char *) s, n) == n)
			return psprintf("Escape sequence \"%.*s\" is invalid.", (int) n, (const char *) s);
		return pstrdup(message);
	}
	if (n == 0 || n > DETAIL_TOKEN_MAX || printable_prefix((const char *) s, n) < n)
		return expected ? psprintf("Expected %s.", expected) : pstrdup(message);
	if (invalid)
		return psprintf("Token \"%.*s\" is invalid.", (int) n, (const char *) s);
	return psprintf("Expected %s, but found \"%.*s\".", expected, (int) n, (const char *) s);
}

/*
 * The DETAIL for a control character in a string: jsonb's lexer reads the
 * string from its start, so an earlier bad escape is reported instead (and
 * a control character inside an escape makes the escape the error).
 */
static char *
control_detail(const char *json, size_t at)
{
	size_t		start = string_start(json, at),
				end;
	char	   *e = string_error((const unsigned char *) json + start, at + 1 - start, &end);

	return e ? e : psprintf("Character with value 0x%02x must be escaped.", (unsigned char) json[at]);
}

void
fastjson_describe_parse_error(const fj_error *err, const char *json, size_t len, FastjsonInputError *e)
{
	size_t		at = err->offset < len ? err->offset : len;
	size_t		line_start = at,
				from,
				tok;
	int			line = 1;
	const char *p;
	char	   *snippet;
	size_t		n;
	bool		control;

	memset(e, 0, sizeof(*e));
	switch (err->code)
	{
		case FJ_ERR_DEPTH:
			e->sqlerrcode = ERRCODE_STATEMENT_TOO_COMPLEX;
			e->message = psprintf("fastjson nesting depth exceeds the maximum of %d", fastjson_max_depth);
			e->detail = psprintf("Nesting is too deep at byte %zu.", err->offset);
			e->hint = pstrdup("Raise \"fastjson.max_depth\" to accept deeper documents.");
			return;
		case FJ_ERR_TOO_BIG:
			e->sqlerrcode = ERRCODE_PROGRAM_LIMIT_EXCEEDED;
			e->message = pstrdup("fastjson document is too large");
			e->detail = psprintf("%s The limit is %zu bytes.", err->message, (size_t) MaxAllocSize);
			return;
		case FJ_ERR_NOMEM:
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
			break;
		case FJ_ERR_INTERRUPTED:
			CHECK_FOR_INTERRUPTS();
			elog(ERROR, "fastjson parse was interrupted");
			break;
		default:
			break;
	}

	/* syntax and encoding errors: show the line up to the offending token */
	for (p = json; p < json + at; p++)
		if (*p == '\n')
		{
			line++;
			line_start = (size_t) (p - json) + 1;
		}
	if (line == 1)
		line_start = 0;
	from = at > line_start + 50 ? at - 50 : line_start;
	while (from < at && ((unsigned char) json[from] & 0xc0) == 0x80)
		from++;
	control = at < len && (unsigned char) json[at] < 0x20 && err->reason == FJ_R_CONTROL;
	tok = err->code == FJ_ERR_UTF8 || control ? 0 : token_length(json + at, len - at);
	n = printable_prefix(json + from, at - from + tok);
	snippet = pnstrdup(json + from, n);
	e->context = psprintf("JSON data, line %d: %s%s", line, from > line_start ? "..." : "", snippet);

	if (err->code == FJ_ERR_UTF8)
	{
		char		hex[4 * 5 + 1] = "";
		unsigned char lead = (unsigned char) json[at];
		size_t		i,
					seq = (lead & 0xe0) == 0xc0 ? 2 : (lead & 0xf0) == 0xe0 ? 3 : (lead & 0xf8) == 0xf0 ? 4 : 1;

		/* the bytes of the sequence its first byte announces, as PostgreSQL shows them */
		for (i = 0; i < seq && at + i < len; i++)
			sprintf(hex + strlen(hex), i ? " 0x%02x" : "0x%02x", (unsigned char) json[at + i]);
		e->sqlerrcode = ERRCODE_CHARACTER_NOT_IN_REPERTOIRE;
		e->message = psprintf("invalid byte sequence for encoding \"UTF8\": %s", hex);
		e->detail = pstrdup(err->message);
		return;
	}
	e->sqlerrcode = ERRCODE_INVALID_TEXT_REPRESENTATION;
	e->message = pstrdup("invalid input syntax for type json");
	e->detail = control ? control_detail(json, at) : syntax_detail(err->reason, json, len, at);
}

void
fastjson_report_input_error(const FastjsonInputError *e, Node *escontext)
{
	errsave(escontext,
			(errcode(e->sqlerrcode),
			 errmsg_internal("%s", e->message),
			 e->detail ? errdetail_internal("%s", e->detail) : 0,
			 e->hint ? errhint("%s", e->hint) : 0,
			 e->context ? errcontext("%s", e->context) : 0));
}

void
fastjson_report_parse_error(const fj_error *err, const char *json, size_t len, Node *escontext)
{
	FastjsonInputError e;

	fastjson_describe_parse_error(err, json, len, &e);
	fastjson_report_input_error(&e, escontext);
}

/* ------------------------------------------------------------- helpers */

void
fastjson_check_encoding(void)
{
	int			enc = GetDatabaseEncoding();

	if (enc != PG_UTF8 && enc != PG_SQL_ASCII)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("fastjson requires a UTF8 database"),
				 errdetail("The database encoding is %s.", GetDatabaseEncodingName())));
}

/* How far a parse of more than one window has got, for its error context. */
typedef struct parse_progress
{
	size_t		len;
	size_t		polls;			/* interrupt polls so far: one before each window */
} parse_progress;

/* Polled before each window: counts the window, honours cancel and statement_timeout. */
static int
progress_interrupted(void *ctx)
{
	((parse_progress *) ctx)->polls++;
	CHECK_FOR_INTERRUPTS();
	return 0;
}

/*
 * The CONTEXT of an error raised inside a long parse (a cancel, a timeout):
 * where the parse was. Windows are FJ_WINDOW bytes or shorter, so the bytes
 * before the current window are at most (polls - 1) windows.
 */
static void
progress_context(void *arg)
{
	parse_progress *p = arg;
	size_t		read = p->polls ? (p->polls - 1) * (size_t) FJ_WINDOW : 0;

	errcontext("parsing fastjson input of %zu bytes, stopped within its first %zu bytes",
			   p->len, Min(read, p->len));
}

/* Parse json[0..len) into *tape; on failure err says why, nothing reported yet. */
static fj_code
parse_tape(const char *json, size_t len, fj_buf *tape, fj_error *err)
{
	fj_parse_options opt;
	fj_code		rc;

	fastjson_parse_options(&opt);
	if (len <= FJ_WINDOW)
		rc = fj_parse(json, len, &opt, tape, err);
	else
	{
		parse_progress progress = {len, 0};
		ErrorContextCallback cb;

		opt.interrupted = progress_interrupted;
		opt.interrupt_ctx = &progress;
		cb.callback = progress_context;
		cb.arg = &progress;
		cb.previous = error_context_stack;
		error_context_stack = &cb;
		rc = fj_parse(json, len, &opt, tape, err);
		error_context_stack = cb.previous;
	}
	if (rc == FJ_OK)
		SET_VARSIZE(tape->data, tape->len);
	return rc;
}

Fastjson *
fastjson_parse_text_safe(const char *json, size_t len, Node *escontext)
{
	fj_buf		tape;
	fj_error	err;

	if (parse_tape(json, len, &tape, &err) != FJ_OK)
	{
		fastjson_report_parse_error(&err, json, len, escontext);
		return NULL;
	}
	return (Fastjson *) tape.data;
}

Datum
fastjson_parse_text_new(const char *json, size_t len, Node *escontext)
{
	FastjsonNew nv;
	fj_buf		tape;
	fj_error	err;

	fastjson_new_begin(&nv, len);
	if (parse_tape(json, len, &tape, &err) != FJ_OK)
	{
		/* the error (saved in escontext, maybe) in the caller's context */
		fastjson_new_end(&nv, NULL);
		fastjson_report_parse_error(&err, json, len, escontext);
		return (Datum) 0;
	}
	return fastjson_new_end(&nv, (Fastjson *) tape.data);
}

Fastjson *
fastjson_parse_text(const char *json, size_t len)
{
	return fastjson_parse_text_safe(json, len, NULL);
}

/* Write the text of v after prefix reserved bytes; returns the buffer. */
static fj_buf
write_text(const uint8_t *v, size_t prefix, size_t size_hint)
{
	fj_buf		out;

	/*
	 * Text is rarely more than twice the tape (PACKED numbers take half a
	 * byte a character, strings and keys about one), and growing the buffer
	 * near the end copies all of it: reserve twice the tape, or a quarter
	 * more for tapes of 64 MB or more.
	 */
	out.cap = prefix + size_hint + (size_hint < (64 << 20) ? size_hint : size_hint / 4) + 32;
	out.data = MemoryContextAllocExtended(CurrentMemoryContext, out.cap, MCXT_ALLOC_HUGE);
	out.len = prefix;
	if (fj_kernel_write_json(fastjson_kernel, v, &fastjson_palloc_allocator, &out) != FJ_OK)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	if (out.len + 1 > MaxAllocSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("fastjson text output is too large"),
				 errdetail("The text would exceed the maximum of %zu bytes.", (size_t) MaxAllocSize)));
	return out;
}

char *
fastjson_value_to_cstring(const uint8_t *v, size_t *len)
{
	fj_buf		out = write_text(v, 0, fj_value_size(v));

	if (out.len + 1 > out.cap)
		out.data = repalloc_huge(out.data, out.len + 1);
	out.data[out.len] = '\0';
	*len = out.len;
	return (char *) out.data;
}

text *
fastjson_value_to_text(const uint8_t *v)
{
	fj_buf		out = write_text(v, VARHDRSZ, fj_value_size(v));

	SET_VARSIZE(out.data, out.len);
	return (text *) out.data;
}

Fastjson *
fastjson_from_value(const uint8_t *v)
{
	size_t		n = fj_value_size(v);
	Fastjson   *d;
	uint8_t    *t;

	if (!fj_value_self_contained(v))
	{
		/* a reference in it points out of it: the builder writes those as strings */
		fj_builder	b;

		fastjson_builder_init(&b);
		fj_builder_value(&b, v);
		return fastjson_builder_finish(&b);
	}
	d = palloc(VARHDRSZ + FJ_TAPE_HEADER + n);
	t = (uint8_t *) VARDATA(d);
	SET_VARSIZE(d, VARHDRSZ + FJ_TAPE_HEADER + n);
	t[0] = FJ_TAPE_VERSION;
	memcpy(t + FJ_TAPE_HEADER, v, n);
	t[1] = fj_root_flags(t + FJ_TAPE_HEADER);
	return d;
}

void
fastjson_builder_init(fj_builder *b)
{
	fj_builder_init(b, &fastjson_palloc_allocator, VARHDRSZ);
	b->max_size = MaxAllocSize;
	b->max_depth = (uint32_t) fastjson_max_depth;
}

Fastjson *
fastjson_builder_finish(fj_builder *b)
{
	fj_buf		out;
	fj_code		rc = fj_builder_finish(b, &out);

	if (rc == FJ_ERR_TOO_BIG)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("fastjson document is too large"),
				 errdetail("The result would exceed the maximum of %zu bytes.", (size_t) MaxAllocSize)));
	if (rc == FJ_ERR_DEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
				 errmsg("fastjson nesting depth exceeds the maximum of %d", fastjson_max_depth),
				 errhint("Raise \"fastjson.max_depth\" to build deeper documents.")));
	if (rc != FJ_OK)
		elog(ERROR, "fastjson builder failed (code %d)", (int) rc);
	SET_VARSIZE(out.data, out.len);
	return (Fastjson *) out.data;
}

/* ------------------------------------------------------- type functions */

PG_FUNCTION_INFO_V1(fastjson_in);

Datum
fastjson_in(PG_FUNCTION_ARGS)
{
	char	   *json = PG_GETARG_CSTRING(0);
	Datum		d;

	fastjson_check_encoding();
	d = fastjson_parse_text_new(json, strlen(json), fcinfo->context);
	if (!d)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(d);
}

PG_FUNCTION_INFO_V1(fastjson_out);

Datum
fastjson_out(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_WHOLE(0);
	size_t		len;

	PG_RETURN_CSTRING(fastjson_value_to_cstring(FJ_ROOT(d), &len));
}

PG_FUNCTION_INFO_V1(fastjson_send);

void
fastjson_report_tape_version(const Fastjson *d)
{
	fastjson_report_tape_version_byte(FJ_TAPE_LEN(d) > 0 ? FJ_TAPE(d)[0] : 0);
}

void
fastjson_report_tape_version_byte(int version)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("fastjson value has tape format version %d, this build reads versions %d to %d",
					version, FJ_TAPE_VERSION_MIN, FJ_TAPE_VERSION),
			 errhint("Values stored by another build of fastjson must be output as text by that build and loaded again.")));
}

/* The binary form is the tape itself, version byte first. */
Datum
fastjson_send(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_WHOLE(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, (const char *) FJ_TAPE(d), (int) FJ_TAPE_LEN(d));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

PG_FUNCTION_INFO_V1(fastjson_recv);

/* Binary input is untrusted: every byte is validated before it is stored. */
Datum
fastjson_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	const uint8_t *tape = (const uint8_t *) buf->data + buf->cursor;
	size_t		len = (size_t) (buf->len - buf->cursor);
	fj_error	err;
	Fastjson   *d;
	FastjsonNew nv;

	if (fj_validate_tape(tape, len, (uint32_t) fastjson_max_depth, &fastjson_palloc_allocator, &err) != FJ_OK)
	{
		if (err.code == FJ_ERR_DEPTH)
			fastjson_report_parse_error(&err, "", 0, NULL);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid binary fastjson value"),
				 errdetail("%s (at byte %zu of %zu)", err.message, err.offset, len)));
	}
	fastjson_new_begin(&nv, len);
	d = palloc(VARHDRSZ + len);
	SET_VARSIZE(d, VARHDRSZ + len);
	memcpy(VARDATA(d), tape, len);
	buf->cursor = buf->len;
	PG_RETURN_DATUM(fastjson_new_end(&nv, d));
}

/* -------------------------------------------------------------- casts */

PG_FUNCTION_INFO_V1(fastjson_from_text);

/* text or json to fastjson: parse the text in place. */
Datum
fastjson_from_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	Datum		d;

	fastjson_check_encoding();
	d = fastjson_parse_text_new(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), fcinfo->context);
	if (!d)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(d);
}

PG_FUNCTION_INFO_V1(fastjson_to_text);

/* fastjson to text or json: the canonical text. */
Datum
fastjson_to_text(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_WHOLE(0);

	PG_RETURN_TEXT_P(fastjson_value_to_text(FJ_ROOT(d)));
}

PG_FUNCTION_INFO_V1(fastjson_from_jsonb);

/* jsonb to fastjson, through jsonb's text. */
Datum
fastjson_from_jsonb(PG_FUNCTION_ARGS)
{
	Jsonb	   *jb = PG_GETARG_JSONB_P(0);
	char	   *s = JsonbToCString(NULL, &jb->root, VARSIZE(jb));

	PG_RETURN_DATUM(fastjson_parse_text_new(s, strlen(s), NULL));
}

PG_FUNCTION_INFO_V1(fastjson_to_jsonb);

/* fastjson to jsonb, through the canonical text. */
Datum
fastjson_to_jsonb(PG_FUNCTION_ARGS)
{
	Fastjson   *d = PG_GETARG_FASTJSON_WHOLE(0);
	size_t		len;
	char	   *s = fastjson_value_to_cstring(FJ_ROOT(d), &len);

	return DirectFunctionCall1(jsonb_in, CStringGetDatum(s));
}

PG_FUNCTION_INFO_V1(fastjson_valid);

/* Whether the text is one valid JSON document fastjson accepts. */
Datum
fastjson_valid(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	fj_parse_options opt;
	fj_error	err;

	fastjson_parse_options(&opt);
	PG_RETURN_BOOL(fj_valid(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &opt, &err));
}

PG_FUNCTION_INFO_V1(fastjson_from_utf8);

/* Raw UTF-8 bytes (a file's content, say) to fastjson; the parser validates the UTF-8. */
Datum
fastjson_from_utf8(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	Datum		d;

	fastjson_check_encoding();
	d = fastjson_parse_text_new(VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b), fcinfo->context);
	if (!d)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(d);
}

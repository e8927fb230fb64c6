/*
 * fastjson_path_method.c — jsonpath item methods on the tape: .type(),
 * .size(), .abs() .floor() .ceiling(), .double(), .keyvalue(), the datetime
 * methods (.datetime() on every version; .date(), .time(), .time_tz(),
 * .timestamp(), .timestamp_tz() from 17), the conversions of 17 (.bigint(),
 * .boolean(), .decimal(), .integer(), .number(), .string()) and the string
 * methods of 19 (.replace(), .lower(), .upper(), .ltrim(), .rtrim(),
 * .btrim(), .initcap(), .split_part()). Each does what jsonb's does, with
 * PostgreSQL's own functions for the conversions (numeric_in, int8in,
 * float8in, parse_datetime, lower, ...) and jsonb's errors.
 *
 * .keyvalue() gives each pair an "id": 10^10 times the id of its base
 * object (0 for $, 1 for the vars, then one per object .keyvalue() made)
 * plus the byte offset of the object within its base object's jsonb
 * representation. fastjson's tape is laid out differently, so the offset
 * jsonb would have is computed from the tape by the rules of jsonb's
 * serializer (jsonb_offset below): the ids are jsonb's.
 */
#include "fastjson_path.h"
#include "fastjson_funcs.h"

#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "pgtime.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/json.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

static inline const char *
op_name(int type)
{
	return jspOperationName((JsonPathItemType) type);
}

bool
fjp_is_method(int type)
{
	switch (type)
	{
		case jpiType:
		case jpiSize:
		case jpiAbs:
		case jpiFloor:
		case jpiCeiling:
		case jpiDouble:
		case jpiDatetime:
		case jpiKeyValue:
			return true;
		default:
			return type >= FJPI_BIGINT && type < FJPI_END;
	}
}

/* ------------------------------------------------------------ .type() .size() */

static const char *
type_name(const FjpItem *it)
{
	switch (fjp_item_type(it))
	{
		case FJPT_NULL:
			return "null";
		case FJPT_STRING:
			return "string";
		case FJPT_NUMBER:
			return "number";
		case FJPT_BOOL:
			return "boolean";
		case FJPT_ARRAY:
			return "array";
		case FJPT_OBJECT:
			return "object";
		case FJPT_DATETIME:
			switch (it->u.dt.typid)
			{
				case DATEOID:
					return "date";
				case TIMEOID:
					return "time without time zone";
				case TIMETZOID:
					return "time with time zone";
				case TIMESTAMPOID:
					return "timestamp without time zone";
				case TIMESTAMPTZOID:
					return "timestamp with time zone";
			}
			elog(ERROR, "unrecognized jsonb value datetime type: %u", it->u.dt.typid);
	}
	return "unknown";
}

static FjpResult
exec_size(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	int64		size;
	FjpItem		v;

	if (fjp_is_array(it))
		size = fj_container_count(it->u.v);
	else
	{
		if (!cx->lax)
		{
			if (!cx->ignore_structural)
				FJP_RAISE(cx, ereport(ERROR,
									  (errcode(ERRCODE_SQL_JSON_ARRAY_NOT_FOUND),
									   errmsg("jsonpath item method .%s() can only be applied to an array",
											  op_name(jsp->type)))));
			return FJP_NOT_FOUND;
		}
		size = 1;
	}
	v = fjp_int_item(size);
	return fjp_exec_next(cx, jsp, NULL, &v, found);
}

/* --------------------------------------------------- .abs() .floor() .ceiling() */

static FjpResult
exec_numeric_method(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	JsonPathItem next;
	FjpItem		v;
	PGFunction	func;

	if (fjp_item_type(it) != FJPT_NUMBER)
		FJP_RAISE(cx, ereport(ERROR,
							  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
							   errmsg("jsonpath item method .%s() can only be applied to a numeric value",
									  op_name(jsp->type)))));
	func = jsp->type == jpiAbs ? numeric_abs : jsp->type == jpiFloor ? numeric_floor : numeric_ceil;
	if (it->kind == FJP_TAPE && (FJ_TYPE(it->u.v[0]) == FJ_UINT ||
								 (FJ_TYPE(it->u.v[0]) == FJ_NINT && jsp->type != jpiAbs)))
		v = *it;				/* an integer is its own floor and ceiling, a non-negative one its abs */
	else
		v = fjp_numeric_item(DatumGetNumeric(DirectFunctionCall1(func,
																 NumericGetDatum(fjp_item_numeric(it)))));
	if (!jspGetNext(jsp, &next) && !found)
		return FJP_OK;
	return fjp_exec_next(cx, jsp, &next, &v, found);
}

/* ------------------------------------------------------------------ .double() */

/*
 * The text of .double()'s argument read as a double: FJP_OK, or FJP_ERROR
 * after raising (or, silent, suppressing) jsonb's error for it. From 17 the
 * message quotes the argument; before, it says whether it was a number or a
 * string.
 */
static FjpResult
double_arg(FjpExec *cx, JsonPathItem *jsp, char *tmp, bool from_string, float8 *result)
{
	bool		error;
	float8		d = fjc_float8in(tmp, &error);

	if (FJC_DOUBLE_ERRORS_QUOTE_ARGUMENT)
	{
		if (error)
			FJP_RAISE(cx, ereport(ERROR,
								  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
								   errmsg("argument \"%s\" of jsonpath item method .%s() is invalid for type %s",
										  tmp, op_name(jsp->type), "double precision"))));
		if (isinf(d) || isnan(d))
			FJP_RAISE(cx, ereport(ERROR,
								  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
								   errmsg("NaN or Infinity is not allowed for jsonpath item method .%s()",
										  op_name(jsp->type)))));
	}
	else if (error || isinf(d) || isnan(d))
		FJP_RAISE(cx, ereport(ERROR,
							  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
							   from_string ?
							   errmsg("string argument of jsonpath item method .%s() is not a valid representation of a double precision number",
									  op_name(jsp->type)) :
							   errmsg("numeric argument of jsonpath item method .%s() is out of range for type double precision",
									  op_name(jsp->type)))));
	*result = d;
	return FJP_OK;
}

/*
 * Whether a string a method reads as text (a number, a date, a boolean)
 * can be text: one holding U+0000 cannot, and PostgreSQL's input functions
 * would stop at it and read the rest as missing. It gets the error ->> gives
 * (fastjson_check_no_nul, 22P05), raised as the method's other errors are:
 * with silent the answer is only false.
 */
static bool
string_is_text(FjpExec *cx, const char *s, int32 len)
{
	if (!memchr(s, '\0', len))
		return true;
	if (cx->throw_errors)
		(void) fastjson_check_no_nul((const uint8_t *) s, (uint32) len, NULL);
	return false;
}

static FjpResult
exec_double(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	FjpItem		v = *it;
	const char *s;
	int32		len;
	float8		d;

	if (fjp_item_type(it) == FJPT_NUMBER)
	{
		/* a number passes as it is */
		if (double_arg(cx, jsp, fjp_item_number_out(it), false, &d) != FJP_OK)
			return FJP_ERROR;
	}
	else if (fjp_item_string(it, &s, &len))
	{
		if (!string_is_text(cx, s, len))
			return FJP_ERROR;
		if (double_arg(cx, jsp, pnstrdup(s, len), true, &d) != FJP_OK)
			return FJP_ERROR;
		v = fjp_numeric_item(DatumGetNumeric(DirectFunctionCall1(float8_numeric, Float8GetDatum(d))));
	}
	else
		FJP_RAISE(cx, ereport(ERROR,
							  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
							   errmsg("jsonpath item method .%s() can only be applied to a string or numeric value",
									  op_name(jsp->type)))));
	return fjp_exec_next(cx, jsp, NULL, &v, found);
}

/* ------------------------------------------------------------- datetimes */

char *
fjp_datetime_text(const FjpItem *it)
{
	return JsonEncodeDateTime(NULL, it->u.dt.value, it->u.dt.typid, &it->u.dt.tz);
}

/* A cast between a type with and one without time zone needs the _tz functions (always raised). */
static void
check_tz(bool use_tz, const char *from, const char *to)
{
	if (!use_tz)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot convert value from %s to %s without time zone usage", from, to),
				 errhint("Use *_tz() function for time zone support.")));
}

int
fjp_compare_datetime(const FjpItem *a, const FjpItem *b, bool use_tz, bool *cast_error)
{
	Datum		v1 = a->u.dt.value,
				v2 = b->u.dt.value;
	Oid			t1 = a->u.dt.typid,
				t2 = b->u.dt.typid;
	PGFunction	cmp = NULL;

	*cast_error = false;
	switch (t1)
	{
		case DATEOID:
			switch (t2)
			{
				case DATEOID:
					cmp = date_cmp;
					break;
				case TIMESTAMPOID:
					return date_cmp_timestamp_internal(DatumGetDateADT(v1), DatumGetTimestamp(v2));
				case TIMESTAMPTZOID:
					check_tz(use_tz, "date", "timestamptz");
					return date_cmp_timestamptz_internal(DatumGetDateADT(v1), DatumGetTimestampTz(v2));
				case TIMEOID:
				case TIMETZOID:
					*cast_error = true;
					return 0;
			}
			break;
		case TIMEOID:
			switch (t2)
			{
				case TIMEOID:
					cmp = time_cmp;
					break;
				case TIMETZOID:
					check_tz(use_tz, "time", "timetz");
					v1 = DirectFunctionCall1(time_timetz, v1);
					cmp = timetz_cmp;
					break;
				case DATEOID:
				case TIMESTAMPOID:
				case TIMESTAMPTZOID:
					*cast_error = true;
					return 0;
			}
			break;
		case TIMETZOID:
			switch (t2)
			{
				case TIMEOID:
					check_tz(use_tz, "time", "timetz");
					v2 = DirectFunctionCall1(time_timetz, v2);
					cmp = timetz_cmp;
					break;
				case TIMETZOID:
					cmp = timetz_cmp;
					break;
				case DATEOID:
				case TIMESTAMPOID:
				case TIMESTAMPTZOID:
					*cast_error = true;
					return 0;
			}
			break;
		case TIMESTAMPOID:
			switch (t2)
			{
				case DATEOID:
					return -date_cmp_timestamp_internal(DatumGetDateADT(v2), DatumGetTimestamp(v1));
				case TIMESTAMPOID:
					cmp = timestamp_cmp;
					break;
				case TIMESTAMPTZOID:
					check_tz(use_tz, "timestamp", "timestamptz");
					return timestamp_cmp_timestamptz_internal(DatumGetTimestamp(v1), DatumGetTimestampTz(v2));
				case TIMEOID:
				case TIMETZOID:
					*cast_error = true;
					return 0;
			}
			break;
		case TIMESTAMPTZOID:
			switch (t2)
			{
				case DATEOID:
					check_tz(use_tz, "date", "timestamptz");
					return -date_cmp_timestamptz_internal(DatumGetDateADT(v2), DatumGetTimestampTz(v1));
				case TIMESTAMPOID:
					check_tz(use_tz, "timestamp", "timestamptz");
					return -timestamp_cmp_timestamptz_internal(DatumGetTimestamp(v2), DatumGetTimestampTz(v1));
				case TIMESTAMPTZOID:
					cmp = timestamp_cmp;
					break;
				case TIMEOID:
				case TIMETZOID:
					*cast_error = true;
					return 0;
			}
			break;
	}
	if (!cmp)
		elog(ERROR, "unrecognized SQL/JSON datetime type oid: %u", cmp ? t2 : t1);
	return DatumGetInt32(DirectFunctionCall2(cmp, v1, v2));
}

static FjpResult
format_not_recognized(FjpExec *cx, const char *what, text *datetime)
{
	FJP_RAISE(cx, ereport(ERROR,
						  (errcode(ERRCODE_INVALID_ARGUMENT_FOR_SQL_JSON_DATETIME_FUNCTION),
						   errmsg("%s format is not recognized: \"%s\"", what, text_to_cstring(datetime)))));
}

/*
 * .datetime([template]) and, from 17, .date(), .time([p]), .time_tz([p]),
 * .timestamp([p]), .timestamp_tz([p]): parse_datetime with the template, or
 * with the first ISO format that fits; the typed methods then convert to
 * their type (a cast with or without time zone needs the _tz functions).
 */
static FjpResult
exec_datetime(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	static const char *const iso[] = {FJC_DATETIME_ISO_FORMATS};
	static text *iso_text[lengthof(iso)];
	int			type = jsp->type;
	JsonPathItem elem;
	FjpResult	res = FJP_NOT_FOUND;
	const char *s;
	int32		len;
	text	   *datetime;
	Datum		value = (Datum) 0;
	Oid			typid = InvalidOid;
	int32		typmod = -1;
	int			tz = 0;
	int32		precision = -1;
	FjpItem		v;

	if (!fjp_item_string(it, &s, &len))
		FJP_RAISE(cx, ereport(ERROR,
							  (errcode(ERRCODE_INVALID_ARGUMENT_FOR_SQL_JSON_DATETIME_FUNCTION),
							   errmsg("jsonpath item method .%s() can only be applied to a string",
									  op_name(type)))));
	if (!string_is_text(cx, s, len))
		return FJP_ERROR;
	datetime = cstring_to_text_with_len(s, len);

	if (type == jpiDatetime && jsp->content.arg)
	{
		char	   *tstr;
		int32		tlen;
		bool		error = false;

		jspGetArg(jsp, &elem);
		if (elem.type != jpiString)
			elog(ERROR, "invalid jsonpath item type for .datetime() argument");
		tstr = jspGetString(&elem, &tlen);
		value = fjc_parse_datetime(datetime, cstring_to_text_with_len(tstr, tlen), &typid, &typmod,
								   &tz, cx->throw_errors ? NULL : &error);
		res = error ? FJP_ERROR : FJP_OK;
	}
	else
	{
		int			i;

		/* a time precision: the typed methods but .date() */
		if (type != jpiDatetime && type != FJPI_DATE && jsp->content.arg)
		{
			bool		error;

			jspGetArg(jsp, &elem);
			if (elem.type != jpiNumeric)
				elog(ERROR, "invalid jsonpath item type for %s argument", op_name(type));
			precision = fjc_numeric_int4(jspGetNumeric(&elem), &error);
			if (error)
				FJP_RAISE(cx, ereport(ERROR,
									  (errcode(ERRCODE_INVALID_ARGUMENT_FOR_SQL_JSON_DATETIME_FUNCTION),
									   errmsg("time precision of jsonpath item method .%s() is out of range for type integer",
											  op_name(type)))));
		}
		for (i = 0; i < (int) lengthof(iso); i++)
		{
			bool		error;

			if (!iso_text[i])
			{
				MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

				iso_text[i] = cstring_to_text(iso[i]);
				MemoryContextSwitchTo(old);
			}
			value = fjc_parse_datetime(datetime, iso_text[i], &typid, &typmod, &tz, &error);
			if (!error)
			{
				res = FJP_OK;
				break;
			}
		}
		if (res == FJP_NOT_FOUND)
		{
			if (type == jpiDatetime)
				FJP_RAISE(cx, ereport(ERROR,
									  (errcode(ERRCODE_INVALID_ARGUMENT_FOR_SQL_JSON_DATETIME_FUNCTION),
									   errmsg("%s format is not recognized: \"%s\"",
											  "datetime", text_to_cstring(datetime)),
									   errhint("Use a datetime template argument to specify the input data format."))));
			return format_not_recognized(cx, op_name(type), datetime);
		}
	}

	/* the typed methods: convert what was parsed */
	switch (type)
	{
		case jpiDatetime:
			break;
		case FJPI_DATE:
			switch (typid)
			{
				case DATEOID:
					break;
				case TIMEOID:
				case TIMETZOID:
					return format_not_recognized(cx, "date", datetime);
				case TIMESTAMPOID:
					value = DirectFunctionCall1(timestamp_date, value);
					break;
				case TIMESTAMPTZOID:
					check_tz(cx->use_tz, "timestamptz", "date");
					value = DirectFunctionCall1(timestamptz_date, value);
					break;
				default:
					elog(ERROR, "type with oid %u not supported", typid);
			}
			typid = DATEOID;
			break;
		case FJPI_TIME:
			switch (typid)
			{
				case DATEOID:
					return format_not_recognized(cx, "time", datetime);
				case TIMEOID:
					break;
				case TIMETZOID:
					check_tz(cx->use_tz, "timetz", "time");
					value = DirectFunctionCall1(timetz_time, value);
					break;
				case TIMESTAMPOID:
					value = DirectFunctionCall1(timestamp_time, value);
					break;
				case TIMESTAMPTZOID:
					check_tz(cx->use_tz, "timestamptz", "time");
					value = DirectFunctionCall1(timestamptz_time, value);
					break;
				default:
					elog(ERROR, "type with oid %u not supported", typid);
			}
			if (precision != -1)
			{
				TimeADT		t;

				/* warns when the precision is reduced */
				precision = anytime_typmod_check(false, precision);
				t = DatumGetTimeADT(value);
				AdjustTimeForTypmod(&t, precision);
				value = TimeADTGetDatum(t);
				typmod = precision;
			}
			typid = TIMEOID;
			break;
		case FJPI_TIME_TZ:
			switch (typid)
			{
				case DATEOID:
				case TIMESTAMPOID:
					return format_not_recognized(cx, "time_tz", datetime);
				case TIMEOID:
					check_tz(cx->use_tz, "time", "timetz");
					value = DirectFunctionCall1(time_timetz, value);
					break;
				case TIMETZOID:
					break;
				case TIMESTAMPTZOID:
					value = DirectFunctionCall1(timestamptz_timetz, value);
					break;
				default:
					elog(ERROR, "type with oid %u not supported", typid);
			}
			if (precision != -1)
			{
				TimeTzADT  *t;

				precision = anytime_typmod_check(true, precision);
				t = DatumGetTimeTzADTP(value);
				AdjustTimeForTypmod(&t->time, precision);
				value = TimeTzADTPGetDatum(t);
				typmod = precision;
			}
			typid = TIMETZOID;
			break;
		case FJPI_TIMESTAMP:
			switch (typid)
			{
				case DATEOID:
					value = DirectFunctionCall1(date_timestamp, value);
					break;
				case TIMEOID:
				case TIMETZOID:
					return format_not_recognized(cx, "timestamp", datetime);
				case TIMESTAMPOID:
					break;
				case TIMESTAMPTZOID:
					check_tz(cx->use_tz, "timestamptz", "timestamp");
					value = DirectFunctionCall1(timestamptz_timestamp, value);
					break;
				default:
					elog(ERROR, "type with oid %u not supported", typid);
			}
			if (precision != -1)
			{
				Timestamp	t;

				precision = anytimestamp_typmod_check(false, precision);
				t = DatumGetTimestamp(value);
				if (!fjc_adjust_timestamp(&t, precision))
					FJP_RAISE(cx, ereport(ERROR,
										  (errcode(ERRCODE_INVALID_ARGUMENT_FOR_SQL_JSON_DATETIME_FUNCTION),
										   errmsg("time precision of jsonpath item method .%s() is invalid",
												  op_name(type)))));
				value = TimestampGetDatum(t);
				typmod = precision;
			}
			typid = TIMESTAMPOID;
			break;
		case FJPI_TIMESTAMP_TZ:
			{
				struct pg_tm tm;
				fsec_t		fsec;

				switch (typid)
				{
					case DATEOID:
						check_tz(cx->use_tz, "date", "timestamptz");
						/* the offset the session's time zone has at that midnight */
						j2date(DatumGetDateADT(value) + POSTGRES_EPOCH_JDATE,
							   &tm.tm_year, &tm.tm_mon, &tm.tm_mday);
						tm.tm_hour = 0;
						tm.tm_min = 0;
						tm.tm_sec = 0;
						tz = DetermineTimeZoneOffset(&tm, session_timezone);
						value = DirectFunctionCall1(date_timestamptz, value);
						break;
					case TIMEOID:
					case TIMETZOID:
						return format_not_recognized(cx, "timestamp_tz", datetime);
					case TIMESTAMPOID:
						check_tz(cx->use_tz, "timestamp", "timestamptz");
						if (timestamp2tm(DatumGetTimestamp(value), NULL, &tm, &fsec, NULL, NULL) == 0)
							tz = DetermineTimeZoneOffset(&tm, session_timezone);
						value = DirectFunctionCall1(timestamp_timestamptz, value);
						break;
					case TIMESTAMPTZOID:
						break;
					default:
						elog(ERROR, "type with oid %u not supported", typid);
				}
				if (precision != -1)
				{
					Timestamp	t;

					precision = anytimestamp_typmod_check(true, precision);
					t = DatumGetTimestampTz(value);
					if (!fjc_adjust_timestamp(&t, precision))
						FJP_RAISE(cx, ereport(ERROR,
											  (errcode(ERRCODE_INVALID_ARGUMENT_FOR_SQL_JSON_DATETIME_FUNCTION),
											   errmsg("time precision of jsonpath item method .%s() is invalid",
													  op_name(type)))));
					value = TimestampTzGetDatum(t);
					typmod = precision;
				}
				typid = TIMESTAMPTZOID;
				break;
			}
		default:
			elog(ERROR, "unrecognized jsonpath item type: %d", type);
	}
	pfree(datetime);
	if (res == FJP_ERROR)
		return res;
	if (!jspGetNext(jsp, &elem) && !found)
		return res;
	v.kind = FJP_DATETIME;
	v.u.dt.value = value;
	v.u.dt.typid = typid;
	v.u.dt.typmod = typmod;
	v.u.dt.tz = tz;
	return fjp_exec_next(cx, jsp, &elem, &v, found);
}

/* -------------------------------------------------------------- .keyvalue() */

/*
 * The size of the numeric varlena jsonb stores for the tape number v, as
 * numeric_in makes it: a 6-byte short header (dscale <= 63, weight in
 * -64..63) or an 8-byte one, and 2 bytes per base-10000 digit from the
 * first to the last non-zero one. dscale is the number of digits written
 * after the point less the exponent (not below 0).
 */
static int64
jsonb_numeric_size(const uint8_t *v)
{
	char		buf[FJ_NUMBER_TEXT_BUF];
	const uint8_t *t;
	const char *s;
	uint32		n,
				i = 0;
	int64		frac = 0,
				expo = 0,
				dscale,
				weight,
				lastgroup,
				first_place,
				last_place;
	FjDecimal	d;
	bool		neg_exp = false;

	if (FJ_TYPE(v[0]) == FJ_UINT || FJ_TYPE(v[0]) == FJ_NINT)
		n = 0, s = NULL;
	else
	{
		n = fj_number_text(v, buf, &t);
		s = (const char *) t;
	}
	/* digits after the point as written, and the exponent */
	while (i < n && s[i] != '.' && s[i] != 'e' && s[i] != 'E')
		i++;
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			frac++;
	if (i < n && (s[i] == 'e' || s[i] == 'E'))
	{
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			neg_exp = s[i++] == '-';
		for (; i < n; i++)
			if (expo < PG_INT32_MAX)
				expo = expo * 10 + (s[i] - '0');
		if (neg_exp)
			expo = -expo;
	}
	dscale = Max(frac - expo, 0);

	fj_decimal_read(v, &d);
	if (d.sign == 0)
		return (dscale <= 63 ? 6 : 8);
	/* 0.DIGITS * 10^exp: the first digit is at decimal place exp - 1, the last at exp - ndigits */
	first_place = d.exp - 1;
	last_place = d.exp - (int64) (d.seg_len[0] + d.seg_len[1]);
	fj_decimal_free(&d);
	weight = first_place >= 0 ? first_place / 4 : -((-first_place + 3) / 4);
	lastgroup = last_place >= 0 ? last_place / 4 : -((-last_place + 3) / 4);
	return ((dscale <= 63 && weight >= -64 && weight <= 63) ? 6 : 8) + 2 * (weight - lastgroup + 1);
}

/* The jsonb offsets of the containers of one base object, sorted by tape address. */
typedef struct FjpLayout
{
	struct FjpLayout *next;
	const uint8_t *root;
	int64		n;
	int64		cap;
	struct LayoutEntry
	{
		const uint8_t *c;
		int64		pos;
	}		   *items;
} FjpLayout;

/*
 * Where the value v would end if jsonb's serializer wrote it at position pos
 * (convertJsonbValue), recording where each container starts: containers
 * and numerics start at a multiple of 4; a container is its header, a 4-byte
 * entry per element (two per object pair: keys first, then values, in
 * jsonb's key order), then the keys' bytes and the values; strings are their
 * bytes; null and booleans take none.
 */
static int64
jsonb_layout(FjpExec *cx, FjpLayout *L, const uint8_t *v, int64 pos)
{
	uint32		n,
				i,
				start;

	switch (fj_jsonb_type(v))
	{
		case FJB_NULL:
		case FJB_BOOL:
			return pos;
		case FJB_STRING:
			{
				const uint8_t *t;

				return pos + fj_text(v, &t);
			}
		case FJB_NUMBER:
			return INTALIGN(pos) + jsonb_numeric_size(v);
		default:
			break;
	}
	check_stack_depth();
	pos = INTALIGN(pos);
	if (L->n == L->cap)
	{
		L->cap *= 2;
		L->items = repalloc_huge(L->items, L->cap * sizeof(struct LayoutEntry));
	}
	L->items[L->n].c = v;
	L->items[L->n].pos = pos;
	L->n++;
	if (FJ_TYPE(v[0]) == FJ_ARRAY)
	{
		const uint8_t *p = fj_container_members(v);

		n = fj_container_count(v);
		pos += 4 + 4 * (int64) n;
		for (i = 0; i < n; i++)
		{
			pos = jsonb_layout(cx, L, p, pos);
			p += fj_value_size(p);
			if ((i & 1023) == 1023)
				CHECK_FOR_INTERRUPTS();
		}
		return pos;
	}
	start = fj_object_view(&cx->scratch, v, &n);
	pos += 4 + 8 * (int64) n;
	for (i = 0; i < n; i++)
		pos += cx->scratch.members[start + i].key_len;
	for (i = 0; i < n; i++)
	{
		pos = jsonb_layout(cx, L, cx->scratch.members[start + i].value, pos);
		if ((i & 1023) == 1023)
			CHECK_FOR_INTERRUPTS();
	}
	cx->scratch.top = start;
	return pos;
}

static int
layout_cmp(const void *a, const void *b)
{
	const uint8_t *x = ((const struct LayoutEntry *) a)->c,
			   *y = ((const struct LayoutEntry *) b)->c;

	return x < y ? -1 : x > y;
}

/*
 * The offset jsonb would give container c within its base object's root
 * container. The offsets of all of a base object's containers are found in
 * one walk, the first time one is asked for (kept for the rest of the
 * execution), so that many .keyvalue() calls cost one walk.
 */
static int64
jsonb_offset(FjpExec *cx, const uint8_t *root, const uint8_t *c)
{
	FjpLayout  *L;
	int64		lo,
				hi;

	if (!root)
		return 0;
	for (L = cx->layouts; L; L = L->next)
		if (L->root == root)
			break;
	if (!L)
	{
		L = palloc(sizeof(FjpLayout));
		L->root = root;
		L->n = 0;
		L->cap = 16;
		L->items = palloc(L->cap * sizeof(struct LayoutEntry));
		/* the root container follows the varlena header */
		(void) jsonb_layout(cx, L, root, VARHDRSZ);
		qsort(L->items, L->n, sizeof(struct LayoutEntry), layout_cmp);
		L->next = cx->layouts;
		cx->layouts = L;
	}
	lo = 0;
	hi = L->n;
	while (lo < hi)
	{
		int64		mid = lo + (hi - lo) / 2;

		if (L->items[mid].c == c)
			return L->items[mid].pos - VARHDRSZ;
		if (L->items[mid].c < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/*
 * .keyvalue(): {"id": id, "key": key, "value": value} for each distinct key
 * of an object, in jsonb's key order; each object is the base object of what
 * follows it in the path.
 */
static FjpResult
exec_keyvalue(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	FjpResult	res = FJP_NOT_FOUND;
	JsonPathItem next;
	bool		has_next;
	int64		id;
	uint32		start,
				n,
				i;

	if (fjp_item_type(it) != FJPT_OBJECT)
		FJP_RAISE(cx, ereport(ERROR,
							  (errcode(ERRCODE_SQL_JSON_OBJECT_NOT_FOUND),
							   errmsg("jsonpath item method .%s() can only be applied to an object",
									  op_name(jsp->type)))));
	if (fj_container_count(it->u.v) == 0)
		return FJP_NOT_FOUND;
	has_next = jspGetNext(jsp, &next);
	id = jsonb_offset(cx, cx->base.root, it->u.v) + (int64) cx->base.id * INT64CONST(10000000000);

	start = fj_object_view(&cx->scratch, it->u.v, &n);
	for (i = 0; i < n; i++)
	{
		const FjMember *m = &cx->scratch.members[start + i];
		fj_builder	b;
		Fastjson   *obj;
		FjpItem		ov;
		FjpBase		saved;

		res = FJP_OK;
		if (!has_next && !found)
			break;
		fastjson_builder_init(&b);
		fj_builder_begin_object(&b);
		fj_builder_key(&b, "id", 2);
		fj_builder_int(&b, id);
		fj_builder_key(&b, "key", 3);
		fj_builder_string(&b, (const char *) m->key, m->key_len);
		fj_builder_key(&b, "value", 5);
		fj_builder_value(&b, m->value);
		fj_builder_end(&b);
		obj = fastjson_builder_finish(&b);
		ov = fjp_tape_item(FJ_ROOT(obj));

		saved = cx->base;
		cx->base.root = ov.u.v;
		cx->base.id = cx->next_object_id++;
		res = fjp_exec_next(cx, jsp, &next, &ov, found);
		cx->base = saved;
		if (res == FJP_ERROR || (res == FJP_OK && !found))
			break;
	}
	cx->scratch.top = start;
	return res;
}

/* ------------------------------------------------ conversions (17 and later) */

static FjpResult
not_a_string_or_number(FjpExec *cx, int type)
{
	FJP_RAISE(cx, ereport(ERROR,
						  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
						   errmsg("jsonpath item method .%s() can only be applied to a string or numeric value",
								  op_name(type)))));
}

static FjpResult
invalid_argument(FjpExec *cx, int type, const char *arg, const char *typname)
{
	FJP_RAISE(cx, ereport(ERROR,
						  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
						   errmsg("argument \"%s\" of jsonpath item method .%s() is invalid for type %s",
								  arg, op_name(type), typname))));
}

/* .bigint() and .integer(): a number (rounded as the casts round) or a string of an integer. */
static FjpResult
exec_to_integer(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	bool		big = jsp->type == FJPI_BIGINT;
	const char *tname = big ? "bigint" : "integer";
	FjpType		type = fjp_item_type(it);
	const char *s;
	int32		len;
	int64		val;
	FjpItem		v;

	if (type == FJPT_NUMBER)
	{
		bool		error = false;
		int64		iv;

		if (it->kind == FJP_TAPE && (FJ_TYPE(it->u.v[0]) == FJ_UINT || FJ_TYPE(it->u.v[0]) == FJ_NINT))
		{
			iv = fj_int_value(it->u.v);
			error = !big && (iv < PG_INT32_MIN || iv > PG_INT32_MAX);
			val = iv;
		}
		else if (big)
			val = fjc_numeric_int8(fjp_item_numeric(it), &error);
		else
			val = fjc_numeric_int4(fjp_item_numeric(it), &error);
		if (error)
			return invalid_argument(cx, jsp->type, fjp_item_number_out(it), tname);
	}
	else if (fjp_item_string(it, &s, &len))
	{
		char	   *tmp;
		Datum		d;

		if (!string_is_text(cx, s, len))
			return FJP_ERROR;
		tmp = pnstrdup(s, len);
		if (!fjc_input_safe(big ? int8in : int4in, tmp, -1, &d))
			return invalid_argument(cx, jsp->type, tmp, tname);
		val = big ? DatumGetInt64(d) : DatumGetInt32(d);
	}
	else
		return not_a_string_or_number(cx, jsp->type);
	v = fjp_int_item(val);
	return fjp_exec_next(cx, jsp, NULL, &v, found);
}

/* .boolean(): a boolean, a number that is an integer (0 is false), or a string parse_bool reads. */
static FjpResult
exec_to_boolean(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	FjpType		type = fjp_item_type(it);
	const char *s;
	int32		len;
	bool		b;
	FjpItem		v;

	if (type == FJPT_BOOL)
		b = FJ_IMM(it->u.v[0]) == FJ_TRUE;
	else if (type == FJPT_NUMBER)
	{
		char	   *tmp = fjp_item_number_out(it);
		Datum		d;

		if (!fjc_input_safe(int4in, tmp, -1, &d))
			return invalid_argument(cx, jsp->type, tmp, "boolean");
		b = DatumGetInt32(d) != 0;
	}
	else if (fjp_item_string(it, &s, &len))
	{
		char	   *tmp;

		if (!string_is_text(cx, s, len))
			return FJP_ERROR;
		tmp = pnstrdup(s, len);
		if (!parse_bool(tmp, &b))
			return invalid_argument(cx, jsp->type, tmp, "boolean");
	}
	else
		FJP_RAISE(cx, ereport(ERROR,
							  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
							   errmsg("jsonpath item method .%s() can only be applied to a boolean, string, or numeric value",
									  op_name(jsp->type)))));
	v = fjp_bool_item(b);
	return fjp_exec_next(cx, jsp, NULL, &v, found);
}

/* .number() and .decimal([precision [, scale]]): a number, or a string numeric_in reads. */
static FjpResult
exec_to_number(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	bool		decimal = jsp->type == FJPI_DECIMAL;
	FjpType		type = fjp_item_type(it);
	const char *s;
	int32		len;
	char	   *numstr = NULL;
	FjpItem		v;
	Numeric		num;

	if (type == FJPT_NUMBER)
	{
		/* a number of the tape is never NaN or infinite; a computed one may be */
		if (it->kind == FJP_NUMERIC && (numeric_is_nan(it->u.num) || numeric_is_inf(it->u.num)))
			FJP_RAISE(cx, ereport(ERROR,
								  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
								   errmsg("NaN or Infinity is not allowed for jsonpath item method .%s()",
										  op_name(jsp->type)))));
		v = *it;
		if (decimal && jsp->content.args.left)
			numstr = fjp_item_number_out(it);
	}
	else if (fjp_item_string(it, &s, &len))
	{
		Datum		d;

		if (!string_is_text(cx, s, len))
			return FJP_ERROR;
		numstr = pnstrdup(s, len);
		if (!fjc_input_safe(numeric_in, numstr, -1, &d))
			return invalid_argument(cx, jsp->type, numstr, "numeric");
		num = DatumGetNumeric(d);
		if (numeric_is_nan(num) || numeric_is_inf(num))
			FJP_RAISE(cx, ereport(ERROR,
								  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
								   errmsg("NaN or Infinity is not allowed for jsonpath item method .%s()",
										  op_name(jsp->type)))));
		v = fjp_numeric_item(num);
	}
	else
		return not_a_string_or_number(cx, jsp->type);

	if (decimal && jsp->content.args.left)
	{
		JsonPathItem elem;
		int32		precision,
					scale = 0,
					typmod;
		bool		error;
		Datum		d;

		jspGetLeftArg(jsp, &elem);
		if (elem.type != jpiNumeric)
			elog(ERROR, "invalid jsonpath item type for .decimal() precision");
		precision = fjc_numeric_int4(jspGetNumeric(&elem), &error);
		if (error)
			FJP_RAISE(cx, ereport(ERROR,
								  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
								   errmsg("precision of jsonpath item method .%s() is out of range for type integer",
										  op_name(jsp->type)))));
		if (jsp->content.args.right)
		{
			jspGetRightArg(jsp, &elem);
			if (elem.type != jpiNumeric)
				elog(ERROR, "invalid jsonpath item type for .decimal() scale");
			scale = fjc_numeric_int4(jspGetNumeric(&elem), &error);
			if (error)
				FJP_RAISE(cx, ereport(ERROR,
									  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
									   errmsg("scale of jsonpath item method .%s() is out of range for type integer",
											  op_name(jsp->type)))));
		}
		error = false;
		typmod = fjc_numeric_typmod(precision, scale,
									FJC_DECIMAL_TYPMOD_SOFT && !cx->throw_errors ? &error : NULL);
		if (error)
			return FJP_ERROR;
		if (!fjc_input_safe(numeric_in, numstr, typmod, &d))
			return invalid_argument(cx, jsp->type, numstr, "numeric");
		v = fjp_numeric_item(DatumGetNumeric(d));
	}
	return fjp_exec_next(cx, jsp, NULL, &v, found);
}

/* .string(): a string, number, boolean or datetime as text (numbers as numeric_out writes them). */
static FjpResult
exec_to_string(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	FjpItem		v;
	char	   *tmp;

	switch (fjp_item_type(it))
	{
		case FJPT_STRING:
			v = *it;
			break;
		case FJPT_NUMBER:
			tmp = fjp_item_number_out(it);
			v = fjp_string_item(tmp, (int32) strlen(tmp));
			break;
		case FJPT_BOOL:
			v = FJ_IMM(it->u.v[0]) == FJ_TRUE ? fjp_string_item("true", 4) : fjp_string_item("false", 5);
			break;
		case FJPT_DATETIME:
			tmp = fjp_datetime_text(it);
			v = fjp_string_item(tmp, (int32) strlen(tmp));
			break;
		default:
			FJP_RAISE(cx, ereport(ERROR,
								  (errcode(ERRCODE_NON_NUMERIC_SQL_JSON_ITEM),
								   errmsg("jsonpath item method .%s() can only be applied to a boolean, string, numeric, or datetime value",
										  op_name(jsp->type)))));
	}
	return fjp_exec_next(cx, jsp, NULL, &v, found);
}

/* --------------------------------------------- string methods (19 and later) */

/* A string argument of a string method. */
static Datum
string_arg(JsonPathItem *elem, const char *what)
{
	int32		len;

	if (elem->type != jpiString)
		elog(ERROR, "invalid jsonpath item type for %s", what);
	return CStringGetTextDatum(jspGetString(elem, &len));
}

static FjpResult
exec_string_method(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found)
{
	int			type = jsp->type;
	JsonPathItem elem;
	const char *s;
	int32		len;
	Datum		str;
	Datum		r;
	char	   *res;
	FjpItem		v;

	if (!fjp_item_string(it, &s, &len))
		FJP_RAISE(cx, ereport(ERROR,
							  (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							   errmsg("jsonpath item method .%s() can only be applied to a string",
									  op_name(type)))));
	if (!string_is_text(cx, s, len))
		return FJP_ERROR;
	str = PointerGetDatum(cstring_to_text_with_len(s, len));
	switch (type)
	{
		case FJPI_STR_REPLACE:
			{
				Datum		from,
							to;

				jspGetLeftArg(jsp, &elem);
				from = string_arg(&elem, ".replace() from");
				jspGetRightArg(jsp, &elem);
				to = string_arg(&elem, ".replace() to");
				r = DirectFunctionCall3Coll(replace_text, DEFAULT_COLLATION_OID, str, from, to);
				break;
			}
		case FJPI_STR_LOWER:
			r = DirectFunctionCall1Coll(lower, DEFAULT_COLLATION_OID, str);
			break;
		case FJPI_STR_UPPER:
			r = DirectFunctionCall1Coll(upper, DEFAULT_COLLATION_OID, str);
			break;
		case FJPI_STR_INITCAP:
			r = DirectFunctionCall1Coll(initcap, DEFAULT_COLLATION_OID, str);
			break;
		case FJPI_STR_LTRIM:
		case FJPI_STR_RTRIM:
		case FJPI_STR_BTRIM:
			{
				PGFunction	one = type == FJPI_STR_LTRIM ? ltrim1 : type == FJPI_STR_RTRIM ? rtrim1 : btrim1;
				PGFunction	two = type == FJPI_STR_LTRIM ? ltrim : type == FJPI_STR_RTRIM ? rtrim : btrim;

				if (jsp->content.arg)
				{
					char		what[32];

					snprintf(what, sizeof(what), ".%s() argument", op_name(type));
					jspGetArg(jsp, &elem);
					r = DirectFunctionCall2Coll(two, DEFAULT_COLLATION_OID, str, string_arg(&elem, what));
				}
				else
					r = DirectFunctionCall1Coll(one, DEFAULT_COLLATION_OID, str);
				break;
			}
		case FJPI_STR_SPLIT_PART:
			{
				Datum		delim;
				int32		field;
				bool		error;

				jspGetLeftArg(jsp, &elem);
				delim = string_arg(&elem, ".split_part()");
				jspGetRightArg(jsp, &elem);
				if (elem.type != jpiNumeric)
					elog(ERROR, "invalid jsonpath item type for .split_part()");
				field = fjc_numeric_int4(jspGetNumeric(&elem), &error);
				if (error)
					FJP_RAISE(cx, ereport(ERROR,
										  (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
										   errmsg("field position of jsonpath item method .%s() is out of range for type integer",
												  op_name(type)))));
				if (field == 0)
					FJP_RAISE(cx, ereport(ERROR,
										  (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
										   errmsg("field position of jsonpath item method .%s() must not be zero",
												  op_name(type)))));
				r = DirectFunctionCall3Coll(split_part, DEFAULT_COLLATION_OID, str, delim,
											Int32GetDatum(field));
				break;
			}
		default:
			elog(ERROR, "unsupported jsonpath item type: %d", type);
			return FJP_ERROR;
	}
	res = TextDatumGetCString(r);
	if (!jspGetNext(jsp, &elem) && !found)
		return FJP_OK;
	v = fjp_string_item(res, (int32) strlen(res));
	return fjp_exec_next(cx, jsp, &elem, &v, found);
}

/* --------------------------------------------------------------- dispatch */

FjpResult
fjp_exec_method(FjpExec *cx, JsonPathItem *jsp, const FjpItem *it, FjpList *found, bool unwrap)
{
	int			type = jsp->type;

	/* .type() and .size() look at an array itself; the others apply to its elements */
	if (type == jpiType)
	{
		const char *name = type_name(it);
		FjpItem		v = fjp_string_item(name, (int32) strlen(name));

		return fjp_exec_next(cx, jsp, NULL, &v, found);
	}
	if (type == jpiSize)
		return exec_size(cx, jsp, it, found);
	if (unwrap && fjp_is_array(it))
		return fjp_exec_unwrap_array(cx, jsp, it, found, false);

	switch (type)
	{
		case jpiAbs:
		case jpiFloor:
		case jpiCeiling:
			return exec_numeric_method(cx, jsp, it, found);
		case jpiDouble:
			return exec_double(cx, jsp, it, found);
		case jpiDatetime:
		case FJPI_DATE:
		case FJPI_TIME:
		case FJPI_TIME_TZ:
		case FJPI_TIMESTAMP:
		case FJPI_TIMESTAMP_TZ:
			return exec_datetime(cx, jsp, it, found);
		case jpiKeyValue:
			return exec_keyvalue(cx, jsp, it, found);
		case FJPI_BIGINT:
		case FJPI_INTEGER:
			return exec_to_integer(cx, jsp, it, found);
		case FJPI_BOOLEAN:
			return exec_to_boolean(cx, jsp, it, found);
		case FJPI_DECIMAL:
		case FJPI_NUMBER:
			return exec_to_number(cx, jsp, it, found);
		case FJPI_STRING_FUNC:
			return exec_to_string(cx, jsp, it, found);
		case FJPI_STR_REPLACE:
		case FJPI_STR_LOWER:
		case FJPI_STR_UPPER:
		case FJPI_STR_LTRIM:
		case FJPI_STR_RTRIM:
		case FJPI_STR_BTRIM:
		case FJPI_STR_INITCAP:
		case FJPI_STR_SPLIT_PART:
			return exec_string_method(cx, jsp, it, found);
	}
	elog(ERROR, "unrecognized jsonpath item type: %d", type);
	return FJP_ERROR;
}

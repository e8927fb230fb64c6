// core_bench — parse throughput of the fastjson core (every kernel this CPU
// runs) against simdjson DOM, side by side in one run, plus tape size and
// peak memory of one parse. simdjson's parser is reused, so it parses into
// memory it already has; each kernel does too (a recycling allocator), and
// the default kernel runs once more with malloc and free every parse.
// Prints a markdown table; --csv writes raw numbers.
// With --write it measures text output instead: every kernel's writer (tape
// to minified JSON) against simdjson's serializer of its DOM (to_string).
//
//   core_bench [--reps N] [--min-time S] [--warmup S] [--jsonb-sizes FILE]
//              [--csv FILE] [--write] [FILE.json ...]
//
// Without files it runs every *.json in ../shared/data/corpus (relative to the
// repository root). It also checks, on the fly, that every kernel's tape is
// byte-identical to the scalar kernel's, that the tape validates, and that
// writing it back and re-parsing gives the same tape; any mismatch exits 1.

extern "C" {
#include "../src/fj_core.h"
#include "../src/tape.h"
}

#include <simdjson.h>

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

// The name's suffix of the contestant that parses into fresh memory (malloc and free every parse).
static constexpr const char *kFreshSuffix = " fresh";

using Clock = std::chrono::steady_clock;

#define FJ_STR2(x) #x
#define FJ_STR(x) FJ_STR2(x)

// ------------------------------------------------------------------ options

struct Options
{
	int reps = 5;				// timed repetitions per contestant
	double min_time = 0.1;		// seconds per timed repetition (at least)
	double warmup = 0.05;		// seconds of untimed warm-up per contestant
	std::string jsonb_sizes;	// optional "filename bytes" file
	std::string csv;			// optional CSV output
	bool write = false;			// text output instead of parsing
	std::vector<std::string> files;
};

// Print usage and exit with the given status.
[[noreturn]] static void usage(int status)
{
	std::fprintf(status ? stderr : stdout,
				 "usage: core_bench [--reps N] [--min-time S] [--warmup S]\n"
				 "                  [--jsonb-sizes FILE] [--csv FILE] [--write] [FILE.json ...]\n"
				 "default files: every *.json in ../shared/data/corpus (from the repo root)\n");
	std::exit(status);
}

// Parse the command line into Options (exits on errors).
static Options parse_args(int argc, char **argv)
{
	Options o;

	for (int i = 1; i < argc; i++)
	{
		std::string a = argv[i];
		auto value = [&]() -> std::string {
			if (i + 1 >= argc)
			{
				std::fprintf(stderr, "core_bench: %s needs a value\n", a.c_str());
				usage(2);
			}
			return argv[++i];
		};

		if (a == "--reps")
			o.reps = std::atoi(value().c_str());
		else if (a == "--min-time")
			o.min_time = std::atof(value().c_str());
		else if (a == "--warmup")
			o.warmup = std::atof(value().c_str());
		else if (a == "--jsonb-sizes")
			o.jsonb_sizes = value();
		else if (a == "--csv")
			o.csv = value();
		else if (a == "--write")
			o.write = true;
		else if (a == "-h" || a == "--help")
			usage(0);
		else if (a.size() > 1 && a[0] == '-')
		{
			std::fprintf(stderr, "core_bench: unknown option %s\n", a.c_str());
			usage(2);
		}
		else
			o.files.push_back(a);
	}
	if (o.reps < 1 || o.min_time <= 0 || o.warmup < 0)
		usage(2);
	return o;
}

// ------------------------------------------------------------------ machine

// The repository root: three levels above build/release/core_bench, else ".".
static fs::path repo_root()
{
	std::error_code ec;
	fs::path exe = fs::read_symlink("/proc/self/exe", ec);

	if (!ec)
	{
		fs::path root = exe.parent_path().parent_path().parent_path();
		if (fs::exists(root / "src" / "fj_core.h"))
			return root;
	}
	return fs::current_path();
}

// First line of a shell command's output, or fallback if it fails.
static std::string command_line(const std::string &cmd, const std::string &fallback)
{
	FILE *p = popen(cmd.c_str(), "r");
	char buf[256];
	std::string out;

	if (!p)
		return fallback;
	if (std::fgets(buf, sizeof(buf), p))
		out = buf;
	int status = pclose(p);
	while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
		out.pop_back();
	return status == 0 && !out.empty() ? out : fallback;
}

// The CPU from /proc/cpuinfo: model name, vendor, family and model numbers.
static std::string cpu_model()
{
	std::ifstream f("/proc/cpuinfo");
	std::string line, name = "unknown", vendor, family, model;

	while (std::getline(f, line) && !line.empty())
	{
		size_t colon = line.find(':');
		if (colon == std::string::npos)
			continue;
		std::string key = line.substr(0, line.find_last_not_of(" \t", colon - 1) + 1);
		std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
		if (key == "model name")
			name = value;
		else if (key == "vendor_id")
			vendor = value;
		else if (key == "cpu family")
			family = value;
		else if (key == "model")
			model = value;
	}
	if (!vendor.empty())
		name += " [" + vendor + " family " + family + " model " + model + "]";
	return name;
}

// The short git commit of the repository (with "-dirty" if the tree has changes).
static std::string git_commit(const fs::path &root)
{
	std::string git = "git -C '" + root.string() + "' ";
	std::string rev = command_line(git + "rev-parse --short HEAD 2>/dev/null", "unknown");

	if (rev != "unknown" &&
		command_line(git + "status --porcelain --untracked-files=no 2>/dev/null | head -1", "") != "")
		rev += "-dirty";
	return rev;
}

// Print the machine/build header as markdown.
static void print_header(const fs::path &root, const Options &o)
{
	struct utsname u;
	std::string kernel = uname(&u) == 0 ? u.release : "unknown";
	std::ifstream la("/proc/loadavg");
	std::string load;

	std::getline(la, load);
	std::printf("# fastjson core benchmark\n\n");
	std::printf("- CPU: %s (%ld online cores)\n", cpu_model().c_str(), sysconf(_SC_NPROCESSORS_ONLN));
	std::printf("- Linux kernel: %s; load average at start: %s\n", kernel.c_str(), load.c_str());
	std::printf("- compiler: g++ %s\n", __VERSION__);
	std::printf("- simdjson: %s, implementation %s (DOM parser, reused)\n",
				FJ_STR(SIMDJSON_VERSION), simdjson::get_active_implementation()->name().c_str());
	std::printf("- fastjson default kernel: %s; commit %s\n",
				fj_kernel_name(fj_kernel_best()), git_commit(root).c_str());
	std::printf("- method: %d interleaved repetitions of >= %.2f s each after %.2f s warm-up; "
				"GB/s = input bytes / s (1e9); cells are best (median); each kernel parses into memory "
				"it got back from its last parses, as simdjson's reused parser does, and `%s%s` is the "
				"default kernel with malloc and free every parse\n\n",
				o.reps, o.min_time, o.warmup, fj_kernel_name(fj_kernel_best()), kFreshSuffix);
}

// ------------------------------------------------------------------ helpers

// Read a whole file into a string (exits on failure).
static std::string read_file(const std::string &path)
{
	std::ifstream f(path, std::ios::binary);
	std::ostringstream s;

	if (!f)
	{
		std::fprintf(stderr, "core_bench: cannot read %s\n", path.c_str());
		std::exit(2);
	}
	s << f.rdbuf();
	return s.str();
}

// Read "filename bytes" lines into a map keyed by file name.
static std::map<std::string, double> read_jsonb_sizes(const std::string &path)
{
	std::map<std::string, double> m;
	std::istringstream in(read_file(path));
	std::string line;

	while (std::getline(in, line))
	{
		std::istringstream ls(line);
		std::string name;
		double bytes;

		if (line.empty() || line[0] == '#')
			continue;
		if (ls >> name >> bytes)
			m[name] = bytes;
	}
	return m;
}

// Median of a list of numbers.
static double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	size_t n = v.size();
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Seconds elapsed since t0.
static double since(Clock::time_point t0)
{
	return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Report a correctness failure and exit 1.
[[noreturn]] static void fail(const std::string &file, const std::string &what)
{
	std::fflush(stdout);
	std::fprintf(stderr, "core_bench: CORRECTNESS ERROR in %s: %s\n", file.c_str(), what.c_str());
	std::exit(1);
}

// Parse once with the given kernel and allocator; exits with the error on failure.
static fj_buf parse_or_die(const std::string &file, const std::string &json,
						   const fj_kernel *k, const fj_allocator *a)
{
	fj_parse_options opt{};
	fj_buf out;
	fj_error err;

	opt.kernel = k;
	opt.alloc = a;
	if (fj_parse(json.data(), json.size(), &opt, &out, &err) != FJ_OK)
		fail(file, std::string("fj_parse (") + fj_kernel_name(k) + ") failed: " +
			 (err.message ? err.message : "?") + " at byte " + std::to_string(err.offset));
	return out;
}

// ------------------------------------------------------- counting allocator

// Tracks bytes currently allocated and the peak; each block carries its size.
struct Counter
{
	size_t current = 0;
	size_t peak = 0;
	size_t calls = 0;
};

static constexpr size_t kHeader = 16;	// keeps malloc's 16-byte alignment

// The size recorded in front of a block (h: the block's header).
static size_t block_cap(const char *h)
{
	size_t cap;

	std::memcpy(&cap, h, sizeof(cap));
	return cap;
}

// Allocate size bytes, recording them.
static void *count_alloc(void *ctx, size_t size)
{
	Counter *c = static_cast<Counter *>(ctx);
	char *p = static_cast<char *>(std::malloc(size + kHeader));

	if (!p)
		return nullptr;
	std::memcpy(p, &size, sizeof(size));
	c->current += size;
	c->peak = std::max(c->peak, c->current);
	c->calls++;
	return p + kHeader;
}

// Grow a block to new_size (old_size is the bytes to keep, not the block size).
static void *count_grow(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
	Counter *c = static_cast<Counter *>(ctx);
	char *h = static_cast<char *>(ptr) - kHeader;
	size_t had = block_cap(h);

	if (old_size > had)
		std::fprintf(stderr, "core_bench: grow keeps %zu bytes of a %zu-byte block\n", old_size, had);
	char *p = static_cast<char *>(std::realloc(h, new_size + kHeader));
	if (!p)
		return nullptr;
	std::memcpy(p, &new_size, sizeof(new_size));
	c->current += new_size - had;
	c->peak = std::max(c->peak, c->current);
	c->calls++;
	return p + kHeader;
}

// Free a block, un-recording its size.
static void count_release(void *ctx, void *ptr)
{
	Counter *c = static_cast<Counter *>(ctx);
	char *h = static_cast<char *>(ptr) - kHeader;
	size_t had = block_cap(h);

	c->current -= had;
	std::free(h);
}

// ------------------------------------------------------ recycling allocator

// The memory of the last parses, handed out again: what simdjson's reused DOM
// parser keeps between parses, for fastjson. A released block goes to a short
// list; an allocation takes the smallest listed block that holds it, or
// mallocs. Each block carries its capacity in front, as the counting one does.
struct Recycler
{
	std::vector<char *> free_blocks;	// headers of released blocks
	fj_allocator alloc{};				// this recycler's calls, set by make_recycler
	~Recycler()
	{
		for (char *h : free_blocks)
			std::free(h);
	}
};

static void *recycle_alloc(void *ctx, size_t size)
{
	Recycler *r = static_cast<Recycler *>(ctx);
	size_t pick = r->free_blocks.size();

	for (size_t i = 0; i < r->free_blocks.size(); i++)
		if (block_cap(r->free_blocks[i]) >= size &&
			(pick == r->free_blocks.size() || block_cap(r->free_blocks[i]) < block_cap(r->free_blocks[pick])))
			pick = i;
	if (pick < r->free_blocks.size())
	{
		char *h = r->free_blocks[pick];
		r->free_blocks.erase(r->free_blocks.begin() + static_cast<long>(pick));
		return h + kHeader;
	}
	char *h = static_cast<char *>(std::malloc(size + kHeader));
	if (!h)
		return nullptr;
	std::memcpy(h, &size, sizeof(size));
	return h + kHeader;
}

static void *recycle_grow(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
	(void) ctx;
	(void) old_size;
	char *h = static_cast<char *>(ptr) - kHeader;

	if (block_cap(h) >= new_size)
		return ptr;
	h = static_cast<char *>(std::realloc(h, new_size + kHeader));
	if (!h)
		return nullptr;
	std::memcpy(h, &new_size, sizeof(new_size));
	return h + kHeader;
}

static void recycle_release(void *ctx, void *ptr)
{
	Recycler *r = static_cast<Recycler *>(ctx);
	char *h = static_cast<char *>(ptr) - kHeader;

	if (r->free_blocks.size() < 8)
		r->free_blocks.push_back(h);
	else
		std::free(h);
}

static std::unique_ptr<Recycler> make_recycler()
{
	auto r = std::make_unique<Recycler>();

	r->alloc = {recycle_alloc, recycle_grow, recycle_release, r.get()};
	return r;
}

// ---------------------------------------------------------------- measuring

// One thing being timed: a name and one parse of the current file.
struct Contestant
{
	std::string name;
	std::function<size_t()> run;	// returns something derived from the result
	size_t batch = 1;				// iterations between clock reads
	std::vector<double> secs;		// seconds per iteration, one per repetition

	Contestant(std::string n, std::function<size_t()> f) : name(std::move(n)), run(std::move(f)) {}
};

static volatile size_t g_sink;		// keeps results observable

// Run c untimed for about warmup seconds and pick its batch size (~1 ms).
static void warm_up(Contestant &c, double warmup)
{
	auto t0 = Clock::now();
	size_t iters = 0, sink = 0;

	do
	{
		sink += c.run();
		iters++;
	} while (since(t0) < warmup);
	double per = since(t0) / iters;
	c.batch = std::max<size_t>(1, static_cast<size_t>(1e-3 / per));
	g_sink = g_sink + sink;
}

// Time c over at least min_time seconds; records seconds per iteration.
static void measure(Contestant &c, double min_time)
{
	size_t iters = 0, sink = 0;
	double elapsed;
	auto t0 = Clock::now();

	do
	{
		for (size_t i = 0; i < c.batch; i++)
			sink += c.run();
		iters += c.batch;
	} while ((elapsed = since(t0)) < min_time);
	c.secs.push_back(elapsed / iters);
	g_sink = g_sink + sink;
}

// ------------------------------------------------------------------ per file

struct Result
{
	std::string file;
	size_t input = 0, minified = 0, tape = 0, peak = 0, tape_cap = 0;
	double jsonb = -1;								// -1: unknown
	std::vector<std::string> names;					// contestants, simdjson last
	std::vector<double> best_gbps, median_gbps;		// per contestant
	std::string fastest;							// fastest fastjson kernel (by best)
	double ratio_best = 0, ratio_median = 0;
	double fresh_best = 0, fresh_median = 0;		// the default kernel with fresh memory, over simdjson
};

// Check every kernel's tape against scalar's, validate it and round-trip it.
static void check_correctness(const std::string &file, const std::string &json,
							  const std::vector<const fj_kernel *> &kernels, fj_buf &scalar)
{
	const fj_allocator *a = &fj_malloc_allocator;
	fj_error err;

	for (const fj_kernel *k : kernels)
	{
		fj_buf t = parse_or_die(file, json, k, a);
		if (t.len != scalar.len || std::memcmp(t.data, scalar.data, t.len) != 0)
		{
			size_t at = 0;
			while (at < std::min(t.len, scalar.len) && t.data[at] == scalar.data[at])
				at++;
			fail(file, std::string("kernel ") + fj_kernel_name(k) + " tape (" +
				 std::to_string(t.len) + " bytes) differs from scalar's (" +
				 std::to_string(scalar.len) + " bytes) at tape byte " + std::to_string(at));
		}
		fj_buf_release(a, &t);
	}
	if (fj_validate_tape(scalar.data, scalar.len, FJ_DEFAULT_MAX_DEPTH, a, &err) != FJ_OK)
		fail(file, std::string("fj_validate_tape rejects the parser's tape: ") +
			 (err.message ? err.message : "?") + " at " + std::to_string(err.offset));

	fj_buf text{};
	if (fj_write_json(scalar.data + FJ_TAPE_HEADER, a, &text) != FJ_OK)
		fail(file, "fj_write_json failed");
	std::string written(reinterpret_cast<char *>(text.data), text.len);
	fj_buf_release(a, &text);
	fj_buf again = parse_or_die(file, written, kernels.back(), a);
	if (again.len != scalar.len || std::memcmp(again.data, scalar.data, again.len) != 0)
		fail(file, "re-parsing fj_write_json's text gives a different tape");
	fj_buf_release(a, &again);
}

// Benchmark one file: correctness, sizes, peak memory, interleaved timings.
static Result bench_file(const std::string &path, const Options &o,
						 const std::vector<const fj_kernel *> &kernels,
						 const std::map<std::string, double> &jsonb,
						 simdjson::dom::parser &parser)
{
	Result r;
	std::string json = read_file(path);
	simdjson::padded_string padded(json.data(), json.size());	// its own copy, padded
	const fj_kernel *scalar = fj_kernel_by_name("scalar");

	r.file = fs::path(path).filename().string();
	r.input = json.size();

	// correctness and tape size (prefix 0, scalar kernel as the oracle)
	fj_buf tape = parse_or_die(r.file, json, scalar, &fj_malloc_allocator);
	check_correctness(r.file, json, kernels, tape);
	r.tape = tape.len;
	fj_buf_release(&fj_malloc_allocator, &tape);

	// minified size, by simdjson (independent of fastjson)
	std::vector<char> mini(json.size() + simdjson::SIMDJSON_PADDING);
	size_t mini_len = 0;
	if (simdjson::minify(json.data(), json.size(), mini.data(), mini_len) != simdjson::SUCCESS)
		fail(r.file, "simdjson::minify failed");
	r.minified = mini_len;

	// jsonb size, by file name or stem
	fs::path p(path);
	auto it = jsonb.find(p.filename().string());
	if (it == jsonb.end())
		it = jsonb.find(p.stem().string());
	if (it != jsonb.end())
		r.jsonb = it->second;

	// peak memory of one parse (default kernel), and leak check
	Counter counter;
	fj_allocator counting = {count_alloc, count_grow, count_release, &counter};
	fj_buf t = parse_or_die(r.file, json, nullptr, &counting);
	r.peak = counter.peak;
	r.tape_cap = t.cap;
	if (counter.current != t.cap)
		fail(r.file, "after fj_parse " + std::to_string(counter.current) +
			 " bytes are allocated but the tape buffer holds " + std::to_string(t.cap));
	fj_buf_release(&counting, &t);
	if (counter.current != 0)
		fail(r.file, std::to_string(counter.current) + " bytes leaked by fj_parse");

	// simdjson must accept the file too
	simdjson::dom::element root;
	if (parser.parse(padded).get(root) != simdjson::SUCCESS)
		fail(r.file, "simdjson rejects the file");

	// contestants: every supported kernel (best first), each parsing into
	// memory it gets back from its last parses, as simdjson's reused parser
	// does; the default kernel again with malloc and free every parse (fresh
	// memory: pages the C library may return to the system and fault in
	// again, which simdjson's reused parser never pays); then simdjson
	std::vector<Contestant> cs;
	std::vector<std::unique_ptr<Recycler>> recyclers;
	auto parse_with = [&json](const fj_kernel *k, const fj_allocator *a) {
		return [&json, k, a]() {
			fj_parse_options opt{};
			fj_buf out;
			fj_error err;
			opt.kernel = k;
			opt.alloc = a;
			if (fj_parse(json.data(), json.size(), &opt, &out, &err) != FJ_OK)
				std::abort();
			size_t n = out.len;
			fj_buf_release(a, &out);
			return n;
		};
	};
	for (const fj_kernel *k : kernels)
	{
		recyclers.push_back(make_recycler());
		cs.emplace_back(fj_kernel_name(k), parse_with(k, &recyclers.back()->alloc));
	}
	cs.emplace_back(std::string(fj_kernel_name(fj_kernel_best())) + kFreshSuffix,
					parse_with(fj_kernel_best(), &fj_malloc_allocator));
	cs.emplace_back("simdjson", [&padded, &parser]() {
		simdjson::dom::element e;
		if (parser.parse(padded).get(e) != simdjson::SUCCESS)
			std::abort();
		return static_cast<size_t>(e.type());
	});

	for (Contestant &c : cs)
		warm_up(c, o.warmup);
	// interleave: each repetition runs every contestant once, rotating who goes first
	for (int rep = 0; rep < o.reps; rep++)
		for (size_t j = 0; j < cs.size(); j++)
			measure(cs[(j + rep) % cs.size()], o.min_time);

	// cs holds the kernels, then the fresh-memory run, then simdjson
	double best_fj = 0, med_fj = 0, best_fresh = 0, med_fresh = 0;
	for (size_t i = 0; i < cs.size(); i++)
	{
		const Contestant &c = cs[i];
		double best = r.input / *std::min_element(c.secs.begin(), c.secs.end()) / 1e9;
		double med = r.input / median(c.secs) / 1e9;
		r.names.push_back(c.name);
		r.best_gbps.push_back(best);
		r.median_gbps.push_back(med);
		if (i == kernels.size())
			best_fresh = best, med_fresh = med;
		else if (i < kernels.size())
		{
			if (best > best_fj)
				best_fj = best, r.fastest = c.name;
			med_fj = std::max(med_fj, med);
		}
	}
	r.ratio_best = best_fj / r.best_gbps.back();
	r.ratio_median = med_fj / r.median_gbps.back();
	r.fresh_best = best_fresh / r.best_gbps.back();
	r.fresh_median = med_fresh / r.median_gbps.back();
	return r;
}

// ------------------------------------------------------------- text output

// Text output of one file: each kernel's fj_kernel_write_json of the tape into
// a reused buffer, and simdjson's to_string of its DOM, interleaved. Every
// kernel's text must equal the scalar kernel's. GB/s of fastjson's text.
static void bench_write_file(const std::string &path, const Options &o,
							 const std::vector<const fj_kernel *> &kernels,
							 simdjson::dom::parser &parser, std::vector<double> &ratios)
{
	std::string json = read_file(path);
	std::string file = fs::path(path).filename().string();
	simdjson::padded_string padded(json.data(), json.size());
	fj_buf tape = parse_or_die(file, json, fj_kernel_by_name("scalar"), &fj_malloc_allocator);
	const uint8_t *root = tape.data + FJ_TAPE_HEADER;
	fj_buf ref{};
	simdjson::dom::element dom;

	if (fj_kernel_write_json(fj_kernel_by_name("scalar"), root, &fj_malloc_allocator, &ref) != FJ_OK)
		fail(file, "fj_kernel_write_json (scalar) failed");
	for (const fj_kernel *k : kernels)
	{
		fj_buf out{};
		if (fj_kernel_write_json(k, root, &fj_malloc_allocator, &out) != FJ_OK || out.len != ref.len ||
			std::memcmp(out.data, ref.data, ref.len) != 0)
			fail(file, std::string("kernel ") + fj_kernel_name(k) + " writes another text than scalar");
		fj_buf_release(&fj_malloc_allocator, &out);
	}
	if (parser.parse(padded).get(dom) != simdjson::SUCCESS)
		fail(file, "simdjson rejects the file");
	size_t simd_len = simdjson::to_string(dom).size();

	std::vector<fj_buf> bufs(kernels.size());
	std::vector<Contestant> cs;
	for (size_t i = 0; i < kernels.size(); i++)
		cs.emplace_back(fj_kernel_name(kernels[i]), [&bufs, i, root, k = kernels[i]]() {
			bufs[i].len = 0;
			if (fj_kernel_write_json(k, root, &fj_malloc_allocator, &bufs[i]) != FJ_OK)
				std::abort();
			return bufs[i].len;
		});
	cs.emplace_back("simdjson", [&dom]() { return simdjson::to_string(dom).size(); });
	for (Contestant &c : cs)
		warm_up(c, o.warmup);
	for (int rep = 0; rep < o.reps; rep++)
		for (size_t j = 0; j < cs.size(); j++)
			measure(cs[(j + rep) % cs.size()], o.min_time);

	std::printf("| %s | %zu | %zu |", file.c_str(), ref.len, simd_len);
	double best_fj = 0;
	for (const Contestant &c : cs)
	{
		double best = *std::min_element(c.secs.begin(), c.secs.end());
		std::printf(" %.2f (%.2f) |", ref.len / best / 1e9, ref.len / median(c.secs) / 1e9);
		if (c.name != "simdjson")
			best_fj = std::max(best_fj, 1 / best);
	}
	double ratio = best_fj * *std::min_element(cs.back().secs.begin(), cs.back().secs.end());
	ratios.push_back(ratio);
	std::printf(" %.2f |\n", ratio);
	std::fflush(stdout);
	for (fj_buf &b : bufs)
		fj_buf_release(&fj_malloc_allocator, &b);
	fj_buf_release(&fj_malloc_allocator, &ref);
	fj_buf_release(&fj_malloc_allocator, &tape);
}

// The --write table: a row per file, then the geometric mean.
static void bench_write(const Options &o, const std::vector<const fj_kernel *> &kernels,
						simdjson::dom::parser &parser)
{
	std::vector<double> ratios;

	std::printf("Text output: GB/s of fastjson's minified text, best (median) of %d, each kernel's "
				"writer from the tape and simdjson's to_string from its DOM, interleaved; the last "
				"column is the fastest kernel's speed over simdjson's (time for time).\n\n"
				"| file | text B | simdjson text B |", o.reps);
	for (const fj_kernel *k : kernels)
		std::printf(" %s GB/s |", fj_kernel_name(k));
	std::printf(" simdjson GB/s | fastjson/simdjson |\n|---|--:|--:|");
	for (size_t i = 0; i <= kernels.size(); i++)
		std::printf("--:|");
	std::printf("--:|\n");
	for (const std::string &f : o.files)
	{
		std::fprintf(stderr, "core_bench --write: %s\n", f.c_str());
		bench_write_file(f, o, kernels, parser, ratios);
	}
	double l = 0;
	for (double r : ratios)
		l += std::log(r);
	if (!ratios.empty())
		std::printf("\nfastjson/simdjson text output: geometric mean %.2f, lowest %.2f.\n",
					std::exp(l / ratios.size()), *std::min_element(ratios.begin(), ratios.end()));
}

// ------------------------------------------------------------------- output

// Print the markdown table header for these contestants.
static void print_table_header(const std::vector<std::string> &names)
{
	std::printf("| file | size B |");
	for (const std::string &n : names)
		std::printf(" %s GB/s |", n.c_str());
	std::printf(" fastjson/simdjson | fresh/simdjson | tape B | tape/minified | tape/jsonb | peak alloc B |"
				" peak/(in+tape) | (in+peak)/(in+tape) |\n|---|--:|");
	for (size_t i = 0; i < names.size(); i++)
		std::printf("--:|");
	std::printf("--:|--:|--:|--:|--:|--:|--:|--:|\n");
}

// Print one file's table row.
static void print_row(const Result &r, const std::string &default_kernel)
{
	char jsonb[32] = "-";

	if (r.jsonb > 0)
		std::snprintf(jsonb, sizeof(jsonb), "%.2f", r.tape / r.jsonb);
	std::printf("| %s | %zu |", r.file.c_str(), r.input);
	for (size_t i = 0; i < r.names.size(); i++)
		std::printf(" %.2f (%.2f) |", r.best_gbps[i], r.median_gbps[i]);
	std::printf(" %.2f (%.2f)%s | %.2f (%.2f) | %zu | %.2f | %s | %zu | %.2f | %.2f |\n",
				r.ratio_best, r.ratio_median,
				r.fastest == default_kernel ? "" : (" [" + r.fastest + "]").c_str(),
				r.fresh_best, r.fresh_median, r.tape, double(r.tape) / r.minified, jsonb, r.peak,
				double(r.peak) / (r.input + r.tape),
				double(r.input + r.peak) / (r.input + r.tape));
	std::fflush(stdout);
}

// Print geometric-mean and worst-case lines under the table.
static void print_summary(const std::vector<Result> &rs)
{
	double lb = 0, lm = 0, lf = 0, min_ratio = 1e9, min_fresh = 1e9, max_peak = 0;
	std::string min_file, min_fresh_file, peak_file;

	for (const Result &r : rs)
	{
		lb += std::log(r.ratio_best);
		lm += std::log(r.ratio_median);
		lf += std::log(r.fresh_best);
		if (r.ratio_best < min_ratio)
			min_ratio = r.ratio_best, min_file = r.file;
		if (r.fresh_best < min_fresh)
			min_fresh = r.fresh_best, min_fresh_file = r.file;
		double pr = double(r.input + r.peak) / (r.input + r.tape);
		if (pr > max_peak)
			max_peak = pr, peak_file = r.file;
	}
	std::printf("\nfastjson/simdjson (fastest kernel, bracketed when not the default): "
				"geometric mean %.2f best (%.2f median); lowest %.2f (%s). Target >= 0.5, goal >= 1.\n",
				std::exp(lb / rs.size()), std::exp(lm / rs.size()), min_ratio, min_file.c_str());
	std::printf("The default kernel with fresh memory every parse (fresh/simdjson): geometric mean %.2f best; "
				"lowest %.2f (%s).\n", std::exp(lf / rs.size()), min_fresh, min_fresh_file.c_str());
	std::printf("Peak memory (input + peak alloc)/(input + tape): highest %.2f (%s). Target <= 2.\n",
				max_peak, peak_file.c_str());
}

// Write the raw numbers, one row per file, as CSV.
static void write_csv(const std::string &path, const std::vector<Result> &rs)
{
	FILE *f = std::fopen(path.c_str(), "w");

	if (!f)
	{
		std::fprintf(stderr, "core_bench: cannot write %s\n", path.c_str());
		std::exit(2);
	}
	std::fprintf(f, "file,input_bytes,minified_bytes,tape_bytes,jsonb_bytes,peak_alloc_bytes,tape_capacity_bytes");
	for (const std::string &n : rs[0].names)
		std::fprintf(f, ",%s_best_gbps,%s_median_gbps", n.c_str(), n.c_str());
	std::fprintf(f, ",fastest_kernel,ratio_best,ratio_median,fresh_ratio_best,fresh_ratio_median\n");
	for (const Result &r : rs)
	{
		std::fprintf(f, "%s,%zu,%zu,%zu,", r.file.c_str(), r.input, r.minified, r.tape);
		if (r.jsonb > 0)
			std::fprintf(f, "%.0f", r.jsonb);
		std::fprintf(f, ",%zu,%zu", r.peak, r.tape_cap);
		for (size_t i = 0; i < r.names.size(); i++)
			std::fprintf(f, ",%.4f,%.4f", r.best_gbps[i], r.median_gbps[i]);
		std::fprintf(f, ",%s,%.4f,%.4f,%.4f,%.4f\n", r.fastest.c_str(), r.ratio_best, r.ratio_median,
					 r.fresh_best, r.fresh_median);
	}
	std::fclose(f);
}

// ------------------------------------------------------------------- main

// Collect the files, run every benchmark and print the table.
int main(int argc, char **argv)
{
	Options o = parse_args(argc, argv);
	fs::path root = repo_root();
	auto t_start = Clock::now();

	if (o.files.empty())
	{
		fs::path corpus = (root / ".." / "shared" / "data" / "corpus").lexically_normal();
		if (!fs::is_directory(corpus))
		{
			std::printf("core_bench: corpus folder %s is missing; skipping\n", corpus.c_str());
			return 0;
		}
		for (const auto &e : fs::directory_iterator(corpus))
			if (e.is_regular_file() && e.path().extension() == ".json")
				o.files.push_back(e.path().string());
		std::sort(o.files.begin(), o.files.end());
	}

	std::map<std::string, double> jsonb;
	if (!o.jsonb_sizes.empty())
		jsonb = read_jsonb_sizes(o.jsonb_sizes);

	// the kernels this CPU runs, best first; scalar must be among them
	const fj_kernel *all[16];
	size_t n = std::min<size_t>(fj_kernel_list(all, 16), 16);
	std::vector<const fj_kernel *> kernels;
	for (size_t i = 0; i < n; i++)
		if (fj_kernel_supported(all[i]))
			kernels.push_back(all[i]);
	if (!fj_kernel_by_name("scalar"))
	{
		std::fprintf(stderr, "core_bench: no scalar kernel\n");
		return 1;
	}

	print_header(root, o);
	simdjson::dom::parser parser;
	if (o.write)
	{
		bench_write(o, kernels, parser);
		return 0;
	}
	std::vector<Result> results;
	std::string default_kernel = fj_kernel_name(fj_kernel_best());
	for (const std::string &f : o.files)
	{
		std::fprintf(stderr, "core_bench: %s\n", f.c_str());
		results.push_back(bench_file(f, o, kernels, jsonb, parser));
		if (results.size() == 1)
			print_table_header(results[0].names);
		print_row(results.back(), default_kernel);
	}
	if (results.empty())
		return 0;
	print_summary(results);
	if (!o.csv.empty())
		write_csv(o.csv, results);
	std::printf("\nAll tapes identical across kernels (%zu), validated and round-tripped. Run took %.1f s.\n",
				kernels.size(), since(t_start));
	return 0;
}

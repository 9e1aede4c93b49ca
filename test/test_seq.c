/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the per-stream sequence tracker (wr_seq). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "wr_seq.h"
#include "wr_test.h"

static struct wr_seq s;

static void
feed(unsigned int window_log2, const uint64_t *seq, size_t n)
{
	size_t i;

	CU_ASSERT_EQUAL_FATAL(wr_seq_init(&s, window_log2, NULL), 0);
	for (i = 0; i < n; i++)
		wr_seq_record(&s, seq[i]);
}

/* Expected counters, in wr_seq_result order. */
static void
expect(uint64_t sent, uint64_t rx_pkts, uint64_t distinct, uint64_t lost,
       uint64_t reordered, uint64_t duplicated, uint64_t too_old)
{
	struct wr_seq_result r;

	wr_seq_finish(&s, sent, &r);
	CU_ASSERT_EQUAL(r.rx_pkts, rx_pkts);
	CU_ASSERT_EQUAL(r.distinct, distinct);
	CU_ASSERT_EQUAL(r.lost, lost);
	CU_ASSERT_EQUAL(r.reordered, reordered);
	CU_ASSERT_EQUAL(r.duplicated, duplicated);
	CU_ASSERT_EQUAL(r.too_old, too_old);
	wr_seq_free(&s);
}

#define FEED(w, ...)                                                      \
	do {                                                              \
		static const uint64_t seq_[] = { __VA_ARGS__ };           \
		feed(w, seq_, sizeof(seq_) / sizeof(seq_[0]));            \
	} while (0)

static void
test_init(void)
{
	uint64_t mem[2];

	CU_ASSERT_EQUAL(wr_seq_mem_size(5), 0);
	CU_ASSERT_EQUAL(wr_seq_mem_size(25), 0);
	CU_ASSERT_EQUAL(wr_seq_mem_size(6), 8);
	CU_ASSERT_EQUAL(wr_seq_mem_size(16), 8192);
	CU_ASSERT_EQUAL(wr_seq_init(&s, 5, NULL), -EINVAL);
	CU_ASSERT_EQUAL(wr_seq_init(&s, 25, NULL), -EINVAL);

	/* Caller memory full of garbage is cleared, and not freed. */
	memset(mem, 0xff, sizeof(mem));
	CU_ASSERT_EQUAL_FATAL(wr_seq_init(&s, 6, mem), 0);
	CU_ASSERT_EQUAL(mem[0], 0);
	CU_ASSERT_EQUAL(mem[1], ~0ull);
	wr_seq_record(&s, 3);
	wr_seq_record(&s, 1);
	expect(4, 2, 2, 2, 1, 0, 0);
	CU_ASSERT_EQUAL(mem[0], (1u << 3) | (1u << 1));
}

static void
test_in_order(void)
{
	uint64_t seq[1000];
	unsigned int i;

	for (i = 0; i < 1000; i++)
		seq[i] = i;
	feed(WR_SEQ_WINDOW_LOG2_DEFAULT, seq, 1000);
	expect(1000, 1000, 1000, 0, 0, 0, 0);
	/* Nothing received at all. */
	feed(WR_SEQ_WINDOW_LOG2_DEFAULT, seq, 0);
	expect(50, 0, 0, 50, 0, 0, 0);
}

static void
test_gaps(void)
{
	FEED(16, 0, 1, 2, 5, 6, 9);
	expect(10, 6, 6, 4, 0, 0, 0);
	/* Loss at the end: the sender sent more than max + 1. */
	FEED(16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
	expect(20, 10, 10, 10, 0, 0, 0);
	/* Loss at the start: the first frame is not 0. */
	FEED(16, 5, 6, 7);
	expect(8, 3, 3, 5, 0, 0, 0);
}

static void
test_swap(void)
{
	FEED(16, 0, 2, 1, 3);
	expect(4, 4, 4, 0, 1, 0, 0);
	/* Frames before the first one received are late, not lost. */
	FEED(16, 5, 6, 0, 7);
	expect(8, 4, 4, 4, 1, 0, 0);
	/* One frame very late (but within the window). */
	FEED(16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0);
	expect(10, 10, 10, 0, 1, 0, 0);
}

static void
test_duplicates(void)
{
	FEED(16, 0, 1, 1, 2, 2, 2, 3);
	expect(4, 7, 4, 0, 0, 3, 0);
	/* A duplicate of a late frame is a duplicate, counted once late. */
	FEED(16, 0, 2, 1, 1, 3);
	expect(4, 5, 4, 0, 1, 1, 0);
	/* Duplicate of a frame received long before (inside the window). */
	FEED(6, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
	     18, 19, 20, 3, 20, 0);
	expect(21, 24, 21, 0, 0, 3, 0);
}

static void
test_window(void)
{
	uint64_t seq[300];
	unsigned int i, n = 0;

	/* Window 64.  0..63, then a jump within the window to 100: the bits
	 * of 64..99 (which held 0..35) must be cleared, those of 36..63 kept. */
	for (i = 0; i < 64; i++)
		seq[n++] = i;
	seq[n++] = 100;
	seq[n++] = 70;	/* late, its bit (6's) was cleared: not a duplicate */
	seq[n++] = 40;	/* 101 - 40 = 61 <= 64: in window, seen: duplicate */
	seq[n++] = 37;	/* 101 - 37 = 64: oldest in window, duplicate */
	seq[n++] = 36;	/* 101 - 36 = 65: too old, counted distinct */
	seq[n++] = 99;	/* late */
	seq[n++] = 99;	/* duplicate */
	feed(6, seq, n);
	/* distinct: 64 + 100 + 70 + 36 + 99 = 68 */
	expect(101, n, 68, 33, 3, 3, 1);

	/* Jump of exactly the window: everything cleared. */
	n = 0;
	for (i = 0; i < 64; i++)
		seq[n++] = i;
	seq[n++] = 128;
	for (i = 65; i < 128; i++)
		seq[n++] = i;	/* all late, none a duplicate */
	seq[n++] = 64;		/* 129 - 64 = 65: too old */
	feed(6, seq, n);
	expect(129, n, 129, 0, 64, 0, 1);
}

static void
test_large_jump(void)
{
	/* Window 64.  A jump far beyond the window, then frames around it. */
	FEED(6, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1000, 999, 1000, 990, 9, 5,
	     1001);
	/* distinct: 0..9, 1000, 999, 990, 9 and 5 (too old: distinct), 1001 */
	expect(1002, 17, 16, 986, 4, 1, 2);
	/* A jump of 2^40: one memset, not 2^40 / 64 word writes. */
	FEED(16, 0, 1, 1ull << 40, (1ull << 40) - 1, 1ull << 40, 2);
	expect((1ull << 40) + 1, 6, 5, (1ull << 40) + 1 - 5, 2, 1, 1);
	/* Lost is never negative: a too-old duplicate counts as distinct. */
	FEED(6, 0, 1, 2, 100, 101, 0, 1);
	expect(102, 7, 7, 95, 2, 0, 2);
	FEED(6, 0, 1, 2, 100, 101, 0, 1);
	expect(3, 7, 7, 0, 2, 0, 2);
}

static void
test_reset(void)
{
	CU_ASSERT_EQUAL_FATAL(wr_seq_init(&s, 6, NULL), 0);
	wr_seq_record(&s, 0);
	wr_seq_record(&s, 5);
	wr_seq_reset(&s);
	wr_seq_record(&s, 5);	/* not a duplicate after the reset */
	wr_seq_record(&s, 0);	/* late, not a duplicate */
	wr_seq_record(&s, 5);
	expect(6, 3, 2, 4, 1, 1, 0);
}

/* ---- randomised, against a naive reference ---- */

static uint64_t rng_state;

static uint64_t
rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * The reference keeps a flag for every sequence number (set semantics,
 * unbounded memory) and applies the documented window rule only to decide
 * "too old": max - seq >= W.
 */
static void
reference(const uint64_t *seq, size_t n, uint64_t window, bool *seen,
	  struct wr_seq_result *r)
{
	uint64_t max = 0;
	bool any = false;
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < n; i++) {
		r->rx_pkts++;
		if (any && max >= seq[i] + window) {
			r->too_old++;
			r->reordered++;
			r->distinct++;
			continue;
		}
		if (seen[seq[i]]) {
			r->duplicated++;
			continue;
		}
		seen[seq[i]] = true;
		r->distinct++;
		if (any && seq[i] < max)
			r->reordered++;
		if (!any || seq[i] > max)
			max = seq[i];
		any = true;
	}
}

/* Every counter of @p got as in @p want. */
static void
assert_result(const struct wr_seq_result *got,
	      const struct wr_seq_result *want)
{
	CU_ASSERT_EQUAL(got->rx_pkts, want->rx_pkts);
	CU_ASSERT_EQUAL(got->distinct, want->distinct);
	CU_ASSERT_EQUAL(got->lost, want->lost);
	CU_ASSERT_EQUAL(got->reordered, want->reordered);
	CU_ASSERT_EQUAL(got->duplicated, want->duplicated);
	CU_ASSERT_EQUAL(got->too_old, want->too_old);
}

#define RAND_N 40000

struct keyed {
	uint64_t key;
	uint64_t tie; /* random order among equal keys */
	uint64_t seq;
};

static int
cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->tie < y->tie ? -1 : x->tie > y->tie;
}

/*
 * Sequence numbers 0 .. RAND_N - 1 plus @p jumps forward jumps of 1 to 3
 * windows, 1 % dropped, each delayed by 0 .. @p disp places (sorted by
 * place + delay, ties in random order, so none arrives after a frame more
 * than disp places behind it), 1 % duplicated (a copy of a frame up to disp places earlier).
 */
static void
check_random_(unsigned int window_log2, uint64_t disp, unsigned int jumps,
	      uint64_t seed, bool lazy)
{
	static struct keyed base[RAND_N];
	static uint64_t seq[2 * RAND_N];
	uint64_t window = 1ull << window_log2, next = 0, t, sent, unique = 0;
	struct wr_seq_result want, got;
	size_t nb = 0, n = 0, i;
	bool *seen;

	rng_state = seed;
	for (i = 0; i < RAND_N; i++) {
		if (jumps != 0 && rng() % (RAND_N / jumps) == 0)
			next += window + rng() % (2 * window);
		if (rng() % 100 != 0) {
			base[nb].key = i + rng() % (disp + 1);
			base[nb].tie = rng();
			base[nb++].seq = next;
		}
		next++;
	}
	sent = next + rng() % 10;	/* and a few lost at the end */
	qsort(base, nb, sizeof(base[0]), cmp_keyed);
	for (i = 0; i < nb; i++) {
		seq[n++] = base[i].seq;
		if (rng() % 100 == 0)
			seq[n++] = base[i - rng() % (disp + 1 < i + 1 ? disp + 1
								      : i + 1)].seq;
	}

	seen = calloc(sent, sizeof(*seen));
	CU_ASSERT_PTR_NOT_NULL_FATAL(seen);
	reference(seq, n, window, seen, &want);
	for (t = 0; t < sent; t++)
		unique += seen[t];
	free(seen);
	want.lost = sent > want.distinct ? sent - want.distinct : 0;

	if (lazy) {
		/* As wr_rx_poll() does: in bursts of 1 to 32 frames. */
		uint64_t run = 0;
		size_t burst = 0;

		CU_ASSERT_EQUAL_FATAL(wr_seq_init(&s, window_log2, NULL), 0);
		for (i = 0; i < n; i++) {
			if (burst == 0) {
				wr_seq_record_run(&s, run);
				run = 0;
				burst = 1 + rng() % 32;
			}
			wr_seq_record_lazy(&s, &run, seq[i]);
			burst--;
		}
		wr_seq_record_run(&s, run);
	} else {
		feed(window_log2, seq, n);
	}
	wr_seq_finish(&s, sent, &got);
	wr_seq_free(&s);
	assert_result(&got, &want);
	CU_ASSERT_EQUAL(got.rx_pkts, got.distinct + got.duplicated);
	if (jumps == 0 && 4 * disp < window) {
		/* Reordering well inside the window (with 1 % drops a place
		 * is about one sequence number): pure set semantics. */
		CU_ASSERT_EQUAL(got.too_old, 0);
		CU_ASSERT_EQUAL(got.distinct, unique);
		CU_ASSERT_EQUAL(got.lost, sent - unique);
	}
	/* The generator must have produced every kind of event. */
	CU_ASSERT(want.reordered > 0);
	CU_ASSERT(want.duplicated > 0);
	CU_ASSERT(want.lost > 0);
	if (4 * disp >= window) {
		CU_ASSERT(want.too_old > 0);
	}
}

/* Each case through wr_seq_record() and through wr_seq_record_lazy(). */
static void
check_random(unsigned int window_log2, uint64_t disp, unsigned int jumps,
	     uint64_t seed)
{
	check_random_(window_log2, disp, jumps, seed, false);
	check_random_(window_log2, disp, jumps, seed, true);
}

static void
test_random_within_window(void)
{
	check_random(6, 10, 0, 1);
	check_random(8, 50, 0, 2);
	check_random(10, 200, 0, 3);
	check_random(16, 5000, 0, 4);
	check_random(16, 1, 0, 5);
	/* With jumps: frames from before a jump that arrive after it are
	 * too old. */
	check_random(8, 50, 3, 6);
	check_random(10, 200, 5, 7);
	check_random(16, 5000, 4, 8);
}

static void
test_random_beyond_window(void)
{
	/* Delays longer than the window: too_old frames, and duplicates of
	 * them that cannot be recognised. */
	check_random(6, 200, 0, 11);
	check_random(6, 1000, 8, 12);
	check_random(7, 300, 2, 13);
}

/*
 * One lane's frames over two RX queues (RSS spreading one stream's varying
 * flows), each queue with its own tracker as wr_rx.c keeps them, merged by
 * summing as wr_engine_stream_seq() does: distinct and lost are exact;
 * reordering is counted per queue (doc/rx.md): frames 1 and 2 swapped on
 * the same queue are reordered, while a frame overtaken by a later one on
 * the other queue is not.
 */
static void
test_two_queues(void)
{
	struct wr_seq q[2];
	struct wr_seq_result r[2];
	uint64_t s, distinct, reordered, dup, rx;
	const uint64_t sent = 10000;

	CU_ASSERT_EQUAL_FATAL(wr_seq_init(&q[0], 8, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(wr_seq_init(&q[1], 8, NULL), 0);
	/* Queue 0 takes the even sequence numbers, queue 1 the odd ones a
	 * little later; 7 and 8 are lost; 100 and 102 arrive swapped on
	 * queue 0; 300 comes twice on queue 0. */
	for (s = 0; s < sent; s += 2) {
		if (s >= 2 && s - 1 != 7)
			wr_seq_record(&q[1], s - 1);
		if (s == 100) {
			wr_seq_record(&q[0], 102);
			wr_seq_record(&q[0], 100);
			continue;
		}
		if (s == 102)
			continue;
		if (s == 8)
			continue;
		wr_seq_record(&q[0], s);
		if (s == 300)
			wr_seq_record(&q[0], s);
	}
	wr_seq_record(&q[1], sent - 1);
	wr_seq_finish(&q[0], 0, &r[0]);
	wr_seq_finish(&q[1], 0, &r[1]);
	rx = r[0].rx_pkts + r[1].rx_pkts;
	distinct = r[0].distinct + r[1].distinct;
	reordered = r[0].reordered + r[1].reordered;
	dup = r[0].duplicated + r[1].duplicated;
	CU_ASSERT_EQUAL(sent - distinct, 2);      /* 7 and 8 */
	CU_ASSERT_EQUAL(dup, 1);                  /* 300 again */
	CU_ASSERT_EQUAL(reordered, 1);            /* 100 after 102 */
	CU_ASSERT_EQUAL(rx, distinct + dup);
	CU_ASSERT_EQUAL(r[1].reordered, 0);       /* always behind queue 0 */
	wr_seq_free(&q[0]);
	wr_seq_free(&q[1]);
}

/*
 * wr_seq_record_block() against wr_seq_record() of each frame, on two
 * trackers fed the same blocks: the counters, next and the whole bitmap
 * equal after each block.  Blocks start anywhere from 3 windows below next
 * to 2 above it (too old, straddling the window's start, duplicates, late
 * frames, straddling next, gaps, jumps beyond the window), 1 to 100 frames
 * long, over windows of 64 and 256 frames (ranges that wrap the bitmap).
 */
static void
test_blocks(void)
{
	static const unsigned int logs[] = { 6, 8 };
	struct wr_seq a, b;
	struct wr_seq_result ra, rb;
	uint64_t x = 88172645463325252ull, seq, n, w, k, blocks = 0;
	unsigned int l, i;

	for (l = 0; l < 2; l++) {
		w = 1ull << logs[l];
		CU_ASSERT_EQUAL_FATAL(wr_seq_init(&a, logs[l], NULL), 0);
		CU_ASSERT_EQUAL_FATAL(wr_seq_init(&b, logs[l], NULL), 0);
		/* As net_pcap replays a file of 64 frames: bursts of 32,
		 * the second round all duplicates. */
		for (i = 0; i < 8; i++) {
			wr_seq_record_block(&a, (i & 1) * 32, 32);
			for (k = 0; k < 32; k++)
				wr_seq_record(&b, (i & 1) * 32 + k);
		}
		for (i = 0; i < 20000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			seq = a.next + x % (5 * w);
			seq = seq > 3 * w ? seq - 3 * w : x % 7;
			n = 1 + (x >> 32) % 100;
			wr_seq_record_block(&a, seq, n);
			for (k = 0; k < n; k++)
				wr_seq_record(&b, seq + k);
			blocks++;
			if (a.next != b.next ||
			    memcmp(a.bitmap, b.bitmap, w / 8) != 0)
				break;
		}
		CU_ASSERT_EQUAL(i, 20000);
		CU_ASSERT_EQUAL(a.next, b.next);
		wr_seq_finish(&a, a.next, &ra);
		wr_seq_finish(&b, b.next, &rb);
		assert_result(&ra, &rb);
		/* Each kind of frame happened. */
		CU_ASSERT(rb.duplicated > 0 && rb.too_old > 0 &&
			  rb.reordered > rb.too_old && rb.lost > 0);
		wr_seq_free(&a);
		wr_seq_free(&b);
	}
	CU_ASSERT_EQUAL(blocks, 40000);
}

static CU_TestInfo seq_tests[] = {
	{ "two_queues", test_two_queues },
	{ "init", test_init },
	{ "in_order", test_in_order },
	{ "gaps", test_gaps },
	{ "swap", test_swap },
	{ "duplicates", test_duplicates },
	{ "window", test_window },
	{ "large_jump", test_large_jump },
	{ "reset", test_reset },
	{ "random_within_window", test_random_within_window },
	{ "random_beyond_window", test_random_beyond_window },
	{ "blocks", test_blocks },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "seq", .pTests = seq_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_seq: window maintenance and the out-of-order cases of the sequence tracker. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_seq.h"

static inline void
inc(uint64_t *c)
{
	__atomic_store_n(c, *c + 1, __ATOMIC_RELAXED);
}

size_t
wr_seq_mem_size(unsigned int window_log2)
{
	if (window_log2 < WR_SEQ_WINDOW_LOG2_MIN ||
	    window_log2 > WR_SEQ_WINDOW_LOG2_MAX)
		return 0;
	return ((size_t)1 << window_log2) / 8;
}

int
wr_seq_init(struct wr_seq *s, unsigned int window_log2, void *mem)
{
	size_t size = wr_seq_mem_size(window_log2);

	if (size == 0)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	if (mem == NULL) {
		mem = calloc(1, size);
		if (mem == NULL)
			return -ENOMEM;
		s->own_mem = true;
	}
	s->bitmap = mem;
	s->window_log2 = window_log2;
	s->mask = ((uint64_t)1 << window_log2) - 1;
	wr_seq_reset(s);
	return 0;
}

void
wr_seq_reset(struct wr_seq *s)
{
	memset(s->bitmap, 0, wr_seq_mem_size(s->window_log2));
	s->next = 0;
	s->rx_pkts = 0;
	s->distinct = 0;
	s->reordered = 0;
	s->duplicated = 0;
	s->too_old = 0;
}

void
wr_seq_free(struct wr_seq *s)
{
	if (s->own_mem)
		free(s->bitmap);
	s->bitmap = NULL;
	s->own_mem = false;
}

/* Clear the bits of sequences from .. from + len - 1, len < W (the range
 * may wrap around the end of the bitmap). */
static void
clear_bits(struct wr_seq *s, uint64_t from, uint64_t len)
{
	uint64_t pos, n, m;

	while (len != 0) {
		pos = from & s->mask;
		n = 64 - (pos & 63);
		if (n > len)
			n = len;
		m = n == 64 ? ~0ull : ((1ull << n) - 1) << (pos & 63);
		s->bitmap[pos >> 6] &= ~m;
		from += n;
		len -= n;
	}
}

void
wr_seq_record_slow_(struct wr_seq *s, uint64_t seq)
{
	uint64_t *word, bit;

	inc(&s->rx_pkts);
	if (seq >= s->next) {
		/* Forward past a gap: next .. seq - 1 not (yet) received. */
		if (seq - s->next >= s->mask)
			memset(s->bitmap, 0, wr_seq_mem_size(s->window_log2));
		else
			clear_bits(s, s->next, seq - s->next);
		s->bitmap[(seq & s->mask) >> 6] |= 1ull << (seq & 63);
		s->next = seq + 1;
		inc(&s->distinct);
		return;
	}
	if (s->next - seq > s->mask + 1) {
		/* Before the window: late, and its bit is gone. */
		inc(&s->too_old);
		inc(&s->reordered);
		inc(&s->distinct);
		return;
	}
	word = &s->bitmap[(seq & s->mask) >> 6];
	bit = 1ull << (seq & 63);
	if (*word & bit) {
		inc(&s->duplicated);
		return;
	}
	*word |= bit;
	inc(&s->reordered);
	inc(&s->distinct);
}

void
wr_seq_record_block(struct wr_seq *s, uint64_t seq, uint64_t n)
{
	uint64_t next = s->next, end = seq + n, from, len, pos, k, m, set = 0;
	uint64_t old = 0, late = 0;

	if (seq < next) {
		/* Below next: next does not move, so each frame is too old or
		 * a bit of the window, set (a duplicate) or not (late). */
		uint64_t below = end < next ? end : next;
		uint64_t first = next > s->mask + 1 ? next - s->mask - 1 : 0;

		from = seq;
		if (from < first) {
			old = (below < first ? below : first) - from;
			from += old;
		}
		for (len = below > from ? below - from : 0; len != 0;
		     len -= k, from += k) {
			pos = from & s->mask;
			k = 64 - (pos & 63);
			if (k > len)
				k = len;
			m = k == 64 ? ~0ull : ((1ull << k) - 1) << (pos & 63);
			set += (uint64_t)__builtin_popcountll(s->bitmap[pos >> 6] &
							      m);
			s->bitmap[pos >> 6] |= m;
		}
		late = (below - seq) - old - set;
		__atomic_store_n(&s->rx_pkts, s->rx_pkts + (below - seq),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&s->distinct, s->distinct + old + late,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&s->reordered, s->reordered + old + late,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&s->too_old, s->too_old + old,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&s->duplicated, s->duplicated + set,
				 __ATOMIC_RELAXED);
		if (end <= next)
			return;
		seq = next;
	}
	/* From next on: in order, after a gap for the first if it is beyond. */
	if (seq > next) {
		wr_seq_record_slow_(s, seq);
		seq++;
	}
	if (end > seq)
		wr_seq_record_run(s, end - seq);
}

void
wr_seq_finish(const struct wr_seq *s, uint64_t sent, struct wr_seq_result *res)
{
	res->rx_pkts = __atomic_load_n(&s->rx_pkts, __ATOMIC_RELAXED);
	res->distinct = __atomic_load_n(&s->distinct, __ATOMIC_RELAXED);
	res->reordered = __atomic_load_n(&s->reordered, __ATOMIC_RELAXED);
	res->duplicated = __atomic_load_n(&s->duplicated, __ATOMIC_RELAXED);
	res->too_old = __atomic_load_n(&s->too_old, __ATOMIC_RELAXED);
	res->lost = sent > res->distinct ? sent - res->distinct : 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_replay: a stream whose frames come from a capture (or from bytes): lanes, loops and the capture's timing. */
#ifndef WR_REPLAY_H
#define WR_REPLAY_H

/**
 * @file
 * A replayed stream sends the frames of a struct wr_capture in capture
 * order, `loops` passes (0: for ever), `count` and `duration` still
 * applying.  With K TX lcores, capture frame k goes to lane k mod K: lane
 * j sends frames j, j+K, j+2K, ... of each pass, in order (the same split
 * as generated streams, doc/replay.md).  A frame's place in the run is
 * g = pass * n + k; `count: C` sends frames g < C.
 *
 * Timing.  With `timing: capture`, frame k of pass p is due at
 *
 *     start + (p * P + t_k - t_0) / speedup
 *
 * where t_k are the capture's times and P, the length of one pass, is the
 * capture's span t_{n-1} - t_0 plus its mean gap span / (n - 1) (the gap
 * the capture does not say: from its last frame to the first of the next
 * pass).  Deadlines are absolute TSC values computed from the pass number
 * (never by adding rounded periods), so nothing drifts over loops.  A lane
 * sends every frame whose deadline has passed (late frames go at once, back
 * to back: stalls are made up); a lane more than WR_REPLAY_CATCHUP_NS
 * behind moves its schedule forward by the delay instead (counted in
 * `stalls`), so a long stall does not turn into a burst of a whole pass.
 *
 * struct wr_replay_sched is that schedule for one lane, driven by a clock
 * the caller passes in (the TSC on the lcore, a fake clock in tests).
 * One writer; no EAL.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_replay_pcap.h"
#include "wr_error.h"
#include "wr_vary.h"

#define WR_REPLAY_TIMINGS(X)            \
	X(RATE, "rate")                 \
	X(CAPTURE, "capture")

enum wr_replay_timing {
#define WR_X(e, name) WR_REPLAY_TIMING_##e,
	WR_REPLAY_TIMINGS(WR_X)
#undef WR_X
};

/** speedup is kept in millionths: 1.0 is 1000000. */
#define WR_REPLAY_SPEEDUP_ONE 1000000ull
/** Default hugepage budget of one replayed stream's frames. */
#define WR_REPLAY_MEMORY_DEFAULT (1024ull << 20)
/** Lateness made up by sending back to back; beyond it the schedule moves:
 * the same 1 ms paced streams make up (wr_tx.c WR_PACE_CATCHUP_NS). */
#define WR_REPLAY_CATCHUP_NS (1000 * 1000ull)
/** Fields of a frame: stream at named offsets. */
#define WR_REPLAY_FIELDS_MAX 16
/** Frames a frame: stream lays out (one period of its fields). */
#define WR_REPLAY_FRAMES_MAX (1u << 20)

/** A field of a frame: stream, at a byte offset, 1 to 8 bytes wide (an
 * integer; 4 an IPv4 address, 6 a MAC) or 16 (an IPv6 address). */
struct wr_replay_field {
	uint16_t offset;
	uint8_t width;
	struct wr_field_spec spec;
};

/** What a stream file says about a replayed stream (owned by its wr_stream). */
struct wr_replay_spec {
	char pcap[WR_ERROR_FILE_MAX]; /**< the file as resolved; "" for frame: */
	bool from_frame;              /**< frame: bytes (+ fields:) */
	uint64_t loops;               /**< passes; 0 = for ever; default 1 */
	enum wr_replay_timing timing;
	uint64_t speedup_ppm;         /**< WR_REPLAY_SPEEDUP_ONE = as captured */
	uint64_t memory_bytes;        /**< hugepage budget of its frames */
	bool rewrite[WR_REWRITE__COUNT];               /**< by enum wr_rewrite_id */
	struct wr_field_spec field[WR_REWRITE__COUNT];
	struct wr_replay_field frame_field[WR_REPLAY_FIELDS_MAX];
	unsigned int n_frame_fields;
	struct wr_capture cap;        /**< the frames, rewrites applied */
};

/**
 * Write the values @p seed draws into @p r's frames: the rewrites of a
 * capture, the fields of a frame: stream, and their checksums.  Every
 * value is written whole and every checksum computed afresh, so calling
 * it again with another seed gives exactly the frames that seed gives
 * (the command line's --seed after the file's).
 */
void wr_replay_spec_seed(struct wr_replay_spec *r, uint64_t seed);

/** Free what @p r owns and @p r itself.  NULL-safe. */
void wr_replay_spec_free(struct wr_replay_spec *r);

/** Frames of a pass lane @p j of @p k sends: capture frames j, j+k, ... < n. */
uint32_t wr_replay_lane_frames(uint32_t n, uint32_t k, uint32_t j);

/**
 * Frames lane @p j of @p k sends in one activation: frames g = pass*n + i
 * with i mod k = j, below @p count (0: no limit) and below loops * n
 * (@p loops 0: no limit).  @return that number (0 when the lane has
 * nothing to send), UINT64_MAX for no limit.
 */
uint64_t wr_replay_lane_limit(uint32_t n, uint64_t loops, uint64_t count,
			      uint32_t k, uint32_t j);

/**
 * Length of one pass after speedup, ns: (span + span / (n - 1)) * 1e6 /
 * speedup_ppm.  @return 0 for a capture that cannot be timed (one frame,
 * or all at one time).
 */
uint64_t wr_replay_pass_ns(const struct wr_capture *c, uint64_t speedup_ppm);

/**
 * Deadlines of lane @p j of @p k within a pass, in ticks of @p hz from
 * the pass's start: out[i] = (t_{j+ik} - t_0) / speedup, rounded up.
 * @p out holds wr_replay_lane_frames() entries.
 */
void wr_replay_lane_deadlines(const struct wr_capture *c, uint64_t speedup_ppm,
			      uint64_t hz, uint32_t k, uint32_t j,
			      uint64_t *out);

/** The average rate of the capture's timing, millipps (rows, budgets). */
uint64_t wr_replay_capture_millipps(const struct wr_capture *c,
				    uint64_t speedup_ppm);

struct wr_replay_sched {
	const uint64_t *dl;     /**< m deadlines within a pass, ticks */
	uint32_t m;             /**< frames of the lane per pass */
	uint32_t pos;           /**< next frame */
	uint64_t pass;          /**< pass of the next frame */
	uint64_t pass_ns;       /**< length of a pass, ns */
	uint64_t hz;
	uint64_t start;         /**< pass 0's start, ticks (moves on stalls) */
	uint64_t base;          /**< the current pass's start */
	uint64_t catchup;       /**< ticks of lateness made up */
	uint64_t stalls;        /**< times the schedule moved */
	uint64_t stall_ticks;   /**< by how much in total */
};

/** Start (or restart) @p s at tick @p now, at pass 0 frame 0. */
void wr_replay_sched_start(struct wr_replay_sched *s, const uint64_t *dl,
			   uint32_t m, uint64_t pass_ns, uint64_t hz,
			   uint64_t now);

/** Start of pass @p p: start + p * pass_ns, in ticks, without accumulated rounding. */
static inline uint64_t
wr_replay_pass_base(const struct wr_replay_sched *s, uint64_t p)
{
	return s->start + (uint64_t)((unsigned __int128)p * s->pass_ns *
				     s->hz / 1000000000ull);
}

/**
 * Take up to @p max frames due at @p now, advancing the schedule; their
 * deadlines (ticks) go to @p due_at.  @return how many (0: none due).
 */
static inline uint32_t
wr_replay_sched_take(struct wr_replay_sched *s, uint64_t now, uint32_t max,
		     uint64_t *due_at)
{
	uint32_t n = 0;
	uint64_t d = s->base + s->dl[s->pos];

	if (d > now)
		return 0;
	if (now - d > s->catchup) {
		/* A long stall: the schedule resumes from now. */
		s->stalls++;
		s->stall_ticks += now - d;
		s->start += now - d;
		s->base += now - d;
		d = now;
	}
	while (n < max && d <= now) {
		due_at[n++] = d;
		if (++s->pos == s->m) {
			s->pos = 0;
			s->base = wr_replay_pass_base(s, ++s->pass);
		}
		d = s->base + s->dl[s->pos];
	}
	return n;
}

#endif /* WR_REPLAY_H */

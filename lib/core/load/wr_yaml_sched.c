/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_yaml_sched: a stream's schedule keys: duration, trains, ramps, and which of them go together. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_parse.h"
#include "wr_sched.h"
#include "wr_stream.h"
#include "wr_yaml_priv.h"
#include "wr_ytree.h"

/* A train's frames are owed to the pacer at once (wr_rate.h: its cap is
 * at least a train); a million frames is 67 ms at 14.88 Mpps, longer
 * trains are better written as streams in a sequence. */
#define TRAIN_FRAMES_MAX 1000000

static const char *const bursts_keys[] = { "frames", "gap", NULL };
static const char *const ramp_keys[] = {
	"shape", "from", "to", "step", "step_time", "at_end", NULL
};
static const char *const shape_names[] = {
#define WR_X(e, name) [WR_RAMP_##e] = name,
	WR_RAMP_SHAPES(WR_X)
#undef WR_X
	NULL
};
static const char *const ramp_end_names[] = {
#define WR_X(e, name) [WR_RAMP_END_##e] = name,
	WR_RAMP_ENDS(WR_X)
#undef WR_X
	NULL
};

/* A rate: max, "250 kpps", "10 Gbps L1", "50%" (wr_parse_rate). */
int
wr_yaml_rate(struct wr_ywalk *w, const struct wr_ynode *n,
	     struct wr_rate_spec *rate)
{
	char why[WR_PARSE_WHY_MAX];

	if (wr_parse_rate(wr_ynode_text(n), rate, why, sizeof(why)) == 0)
		return 0;
	return wr_ywalk_why(w, n, why);
}

int
wr_yaml_duration(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t *ns)
{
	char why[WR_PARSE_WHY_MAX];

	if (n->type != WR_YNODE_SCALAR)
		return wr_ywalk_expected(w, n, "a duration such as 5s, 500ms "
					 "or 10us");
	if (wr_parse_duration_ns(wr_ynode_text(n), ns, why, sizeof(why)) != 0)
		return wr_ywalk_why(w, n, why);
	if (*ns == 0)
		return wr_ywalk_expected(w, n, "a duration above 0 "
					 "(5s, 500ms, 10us)");
	return 0;
}

/* One of @p names (NULL-terminated); @return its index. */
int
wr_yaml_name_of(struct wr_ywalk *w, const struct wr_ynode *n,
		const char *const *names, const char *what)
{
	int i;

	for (i = 0; names[i] != NULL; i++)
		if (n->type == WR_YNODE_SCALAR &&
		    strcmp(wr_ynode_text(n), names[i]) == 0)
			return i;
	return wr_ywalk_expected(w, n, what);
}

/* {frames: N, gap: <dur>} */
int
wr_yaml_bursts(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_stream *s)
{
	const struct wr_ynode *frames, *gap;
	uint64_t v = 0;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {frames, gap}", bursts_keys);
	if (rc != 0)
		return rc;
	frames = wr_ynode_get(n, "frames");
	gap = wr_ynode_get(n, "gap");
	if (frames == NULL)
		return wr_ywalk_missing(w, n, "frames");
	if (gap == NULL)
		return wr_ywalk_missing(w, n, "gap");
	rc = WR_YWALK_KEY(w, "frames", wr_ywalk_u64(w, frames, 1,
						    TRAIN_FRAMES_MAX, &v));
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "gap", wr_yaml_duration(w, gap,
							   &s->train_gap_ns));
	s->train_frames = (uint32_t)v;
	return rc;
}

static int
ramp_rate(struct wr_ywalk *w, const struct wr_ynode *map, const char *key,
	  struct wr_rate_spec *rate)
{
	const struct wr_ynode *v = wr_ynode_get(map, key);
	int rc;

	if (v == NULL)
		return wr_ywalk_missing(w, map, key);
	rc = WR_YWALK_KEY(w, key, wr_yaml_rate(w, v, rate));
	if (rc == 0 && rate->unit == WR_RATE_MAX)
		rc = WR_YWALK_KEY(w, key, wr_ywalk_expected(w, v,
			"a rate such as \"100 kpps\", \"1 Gbps L1\" or "
			"\"10%\" (a ramp needs numbers, not max)"));
	return rc;
}

/* {shape, from, to, step, step_time, at_end} */
int
wr_yaml_ramp(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_stream *s)
{
	struct wr_ramp_spec *r = &s->ramp;
	const struct wr_ynode *v;
	int rc, i;

	rc = wr_ywalk_keys(w, n, "a mapping {shape, from, to, step, step_time, "
			   "at_end}", ramp_keys);
	if (rc != 0)
		return rc;
	r->shape = WR_RAMP_STAIRCASE;
	r->at_end = WR_RAMP_END_HOLD;
	if ((v = wr_ynode_get(n, "shape")) != NULL) {
		i = WR_YWALK_KEY(w, "shape", wr_yaml_name_of(w, v, shape_names,
						"staircase or linear"));
		if (i < 0)
			return i;
		r->shape = (enum wr_ramp_shape)i;
	}
	if ((v = wr_ynode_get(n, "at_end")) != NULL) {
		i = WR_YWALK_KEY(w, "at_end", wr_yaml_name_of(w, v, ramp_end_names,
						"hold or stop"));
		if (i < 0)
			return i;
		r->at_end = (enum wr_ramp_end)i;
	}
	rc = ramp_rate(w, n, "from", &r->from);
	if (rc == 0)
		rc = ramp_rate(w, n, "to", &r->to);
	if (rc == 0)
		rc = ramp_rate(w, n, "step", &r->step);
	if (rc != 0)
		return rc;
	v = wr_ynode_get(n, "step_time");
	if (v == NULL)
		return wr_ywalk_missing(w, n, "step_time");
	rc = WR_YWALK_KEY(w, "step_time", wr_yaml_duration(w, v, &r->step_ns));
	if (rc == 0)
		s->has_ramp = true;
	return rc;
}

/* Keys that only make sense together, or not at all together. */
int
wr_yaml_check_schedule(struct wr_ywalk *w, const struct wr_ynode *n,
		       const struct wr_stream *s)
{
	if (s->has_ramp && wr_ynode_get(n, "rate") != NULL)
		return WR_YWALK_KEY(w, "ramp", wr_ywalk_fail(w,
			wr_ynode_get(n, "ramp"), "a ramp sets the rate: give "
			"either rate or ramp, not both"));
	if (s->has_ramp && s->train_frames != 0)
		return WR_YWALK_KEY(w, "ramp", wr_ywalk_fail(w,
			wr_ynode_get(n, "ramp"), "a ramp cannot be combined "
			"with bursts (trains keep one spacing)"));
	return 0;
}

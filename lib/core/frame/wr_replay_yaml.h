/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_replay_yaml: the stream-file keys of replayed streams (internal to the loader). */
#ifndef WR_REPLAY_YAML_H
#define WR_REPLAY_YAML_H

#include "wr_stream.h"
#include "wr_ytree.h"

/** The stream keys wr_replay_yaml_parse() reads (the loader accepts them). */
#define WR_REPLAY_KEYS \
	"pcap", "frame", "fields", "loops", "timing", "speedup", "rewrite", \
	"memory"

/**
 * The replay keys of stream mapping @p n: with pcap: or frame:, read and
 * check the frames (a capture path is relative to the stream file's
 * directory) into s->replay; refuse keys that make no sense for a
 * replayed stream.  Without either, refuse the replay-only keys.
 * @return 0, -EINVAL (error filled), -ENOMEM, -EIO.
 */
int wr_replay_yaml_parse(struct wr_ywalk *w, const struct wr_ynode *n,
			 struct wr_stream *s);

#endif /* WR_REPLAY_YAML_H */

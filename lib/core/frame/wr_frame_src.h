/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_frame_src: where a template's frames come from (the layer stack, TRex's field engine): one ops table per source. */
#ifndef WR_FRAME_SRC_H
#define WR_FRAME_SRC_H

/**
 * @file
 * A frame source turns a stream into a template (the frame a buffer is
 * filled with once) and writes, per frame, what differs from it.  Each
 * source is one const struct wr_frame_src_ops in its own file, and one
 * line of the table in wr_frame.c (srcs[]), which wr_frame_tmpl_create()
 * walks once per stream: the first source whose wants() takes the stream
 * builds it, and the template and every generator of it keep that ops
 * pointer.  So nothing after the build asks which source a template has:
 * the TX loop makes one indirect call per burst (wr_frame_gen_burst_at()),
 * none per frame.  The same shape as DPDK's struct rte_mempool_ops or
 * testpmd's struct fwd_engine.
 *
 * The sources:
 * - wr_frame_src_stack (wr_frame_gen.c): a stream's layer stack compiled
 *   into a flat edit table (wr_frame.h); the template holds that table
 *   itself (every stream had one before any other source existed);
 * - wr_frame_src_fe (wr_fe_tmpl.c): a `frame:` stream with TRex's field
 *   engine (wr_fe.h); its template is its own, in priv.
 * A replayed capture is not a template source: its frames are loaded
 * whole, and the TX loop takes them through its own table
 * (wr_tx_src.h).
 *
 * Contract of a source: build() fills the common part of struct
 * wr_frame_src (bytes, max_len, is_static, size_varies, and priv when it
 * keeps its own state) and returns 0 or a negative errno with the error
 * filled; free() releases what build() made (called after a failed build
 * too); the generator functions follow wr_frame_gen_init(),
 * wr_frame_gen_next() and wr_frame_gen_burst_at() (wr_frame.h), with
 * struct wr_frame_gen's t, ops, index (of the next frame) and stride set
 * by wr_frame_gen_init() before gen_init() is called, and index kept up to
 * date by next() and burst_at().  Frame k must be a pure function of
 * (stream, seed, k).
 */

#include <stdbool.h>
#include <stdint.h>

struct wr_error;
struct wr_frame_gen;
struct wr_frame_src;
struct wr_stream;

struct wr_frame_src_ops {
	const char *name;
	/** Does this source build @p s? */
	bool (*wants)(const struct wr_stream *s);
	/** Build @p src (zeroed but for ops) from @p s. */
	int (*build)(struct wr_frame_src *src, const struct wr_stream *s,
		     struct wr_error *err);
	/** Release what build() made (NULL-safe on each part). */
	void (*free)(struct wr_frame_src *src);
	/** Size of frame @p index, FCS included, without writing it. */
	uint16_t (*size_at)(const struct wr_frame_src *src, uint64_t index);
	/** Position generator @p g at g->index, striding by g->stride. */
	void (*gen_init)(struct wr_frame_gen *g);
	/** Write frame g->index into @p buf, advance; @return its length. */
	uint16_t (*next)(struct wr_frame_gen *g, uint8_t *buf);
	/** The next @p n frames into objs[k] + off (lens may be NULL when
	 * the size never varies). */
	void (*burst_at)(struct wr_frame_gen *g, void **objs, uint32_t off,
			 uint16_t *lens, unsigned int n);
};

/** What every template has, whatever its source: the head of struct
 * wr_frame_tmpl. */
struct wr_frame_src {
	const struct wr_frame_src_ops *ops;
	void *priv;              /**< the source's own state, or NULL */
	const uint8_t *bytes;    /**< packet 0 at the largest size, FCS excluded */
	uint16_t max_len;        /**< length of bytes */
	bool is_static;          /**< every frame is bytes */
	bool size_varies;        /**< frames of several sizes */
};

extern const struct wr_frame_src_ops wr_frame_src_stack;
extern const struct wr_frame_src_ops wr_frame_src_fe;

#endif /* WR_FRAME_SRC_H */

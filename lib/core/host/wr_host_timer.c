/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_host_timer: a hashed timer wheel (1 ms slots) holding one timer per (host, kind): O(1) to set, cancel and fire. */
#include <errno.h>
#include <stdlib.h>

#include "wr_host_priv.h"

/*
 * Varghese and Lauck's scheme 4 (hashed wheel): a timer due at ms m hangs
 * in slot m mod WR_HOST_WHEEL_SLOTS, on a list linked through the node
 * array (12 bytes a timer, no allocation when armed); a turn passes each
 * slot once and fires what is due, leaving later turns' timers in place.
 */

#define NS_PER_MS 1000000ull
#define UNARMED UINT32_MAX

int
wr_host_wheel_init(struct wr_host_wheel *w, uint32_t n_hosts, uint32_t n_kinds)
{
	uint64_t n = (uint64_t)n_hosts * n_kinds, i;

	w->n_kinds = n_kinds;
	w->node = malloc((n ? n : 1) * sizeof(*w->node));
	w->slot = malloc(WR_HOST_WHEEL_SLOTS * sizeof(*w->slot));
	if (w->node == NULL || w->slot == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		w->node[i].when_ms = UNARMED;
	for (i = 0; i < WR_HOST_WHEEL_SLOTS; i++)
		w->slot[i] = WR_HOST_NIL;
	w->cursor = WR_HOST_NIL;
	return 0;
}

void
wr_host_wheel_free(struct wr_host_wheel *w)
{
	free(w->node);
	free(w->slot);
	w->node = NULL;
	w->slot = NULL;
}

static void
unlink_node(struct wr_host_wheel *w, uint32_t id)
{
	struct wr_host_tnode *x = &w->node[id];

	if (w->cursor == id)
		w->cursor = x->next;
	if (x->prev == WR_HOST_NIL)
		w->slot[x->when_ms & (WR_HOST_WHEEL_SLOTS - 1)] = x->next;
	else
		w->node[x->prev].next = x->next;
	if (x->next != WR_HOST_NIL)
		w->node[x->next].prev = x->prev;
	x->when_ms = UNARMED;
	w->armed--;
}

void
wr_host_wheel_set(struct wr_host_wheel *w, uint32_t id, uint64_t when_ns)
{
	struct wr_host_tnode *x = &w->node[id];
	uint32_t *head;
	uint64_t ms;

	if (x->when_ms != UNARMED)
		unlink_node(w, id);
	if (when_ns == 0)
		return;
	if (!w->based) {
		w->based = true;
		w->base_ns = when_ns;
	}
	/* Rounded up: a timer never fires before its time. */
	ms = when_ns <= w->base_ns ? 0 :
	     (when_ns - w->base_ns + NS_PER_MS - 1) / NS_PER_MS;
	if (ms < w->cur_ms)
		ms = w->cur_ms;
	if (ms >= UNARMED)
		ms = UNARMED - 1;
	x->when_ms = (uint32_t)ms;
	head = &w->slot[ms & (WR_HOST_WHEEL_SLOTS - 1)];
	x->prev = WR_HOST_NIL;
	x->next = *head;
	if (*head != WR_HOST_NIL)
		w->node[*head].prev = id;
	*head = id;
	w->armed++;
}

uint64_t
wr_host_wheel_run(struct wr_host_wheel *w, uint64_t now, struct wr_hosts *hs,
		  void (*fire)(struct wr_hosts *hs, uint32_t id, uint64_t now))
{
	uint64_t now_ms = now <= w->base_ns ? 0 : (now - w->base_ns) / NS_PER_MS;
	uint64_t end, s;
	uint32_t i;

	if (now_ms >= UNARMED)
		now_ms = UNARMED - 1;
	/* One turn at most: a slot passed holds every turn's timers. */
	end = now_ms + 1;
	if (end - w->cur_ms > WR_HOST_WHEEL_SLOTS)
		end = w->cur_ms + WR_HOST_WHEEL_SLOTS;
	for (s = w->cur_ms; s < end && w->armed > 0 && now_ms >= w->cur_ms; s++) {
		/* A timer set from a callback for now or before goes to the
		 * next slot, which this run still passes when it is due. */
		w->cur_ms = (uint32_t)s + 1;
		w->cursor = w->slot[s & (WR_HOST_WHEEL_SLOTS - 1)];
		while (w->cursor != WR_HOST_NIL) {
			uint32_t id = w->cursor;

			w->cursor = w->node[id].next;
			if (w->node[id].when_ms > now_ms)
				continue;
			unlink_node(w, id);
			fire(hs, id, now);
		}
	}
	if (now_ms + 1 > w->cur_ms)
		w->cur_ms = (uint32_t)now_ms + 1;
	if (w->armed == 0)
		return UINT64_MAX;
	/* The next slot holding a timer, looked for a little way ahead (a
	 * timer of a later turn there only makes a tick early). */
	for (i = 0; i < 64; i++)
		if (w->slot[(w->cur_ms + i) & (WR_HOST_WHEEL_SLOTS - 1)] != WR_HOST_NIL)
			break;
	return w->base_ns + (uint64_t)(w->cur_ms + i) * NS_PER_MS;
}

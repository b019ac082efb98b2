/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mpqoe decision cores: the contract between the scheduler modules (kmod/)
 * and the pure-C decisions (the other files of core/), also used by the
 * userspace tests.
 *
 * The glue takes a snapshot of every subflow of a connection (struct
 * mpqoe_subflow_view, in the order of the msk's subflow list), calls
 * mpqoe_<name>_select() directly (from kmod/sched_<name>.c) and schedules
 * the subflow whose index it returns (-1: none). Each scheduler keeps its
 * per-connection state in its own fixed-size struct (zeroed memory is a
 * valid initial state; _init() zeroes it). See ALGORITHMS.md for what each
 * scheduler decides and why.
 */
#ifndef MPQOE_SCHED_H
#define MPQOE_SCHED_H

#include "mpqoe_types.h"

#define MPQOE_MAX_SUBFLOWS	8	/* = MPTCP_SUBFLOWS_MAX in 6.12 */

/* A snapshot the glue takes of one subflow. */
struct mpqoe_subflow_view {
	u32 id;			/* stable within the connection: subflow_id */
	u8 active;		/* mptcp_subflow_active() */
	u8 backup;		/* subflow->backup || subflow->request_bkup */
	u8 cwnd_space;		/* tcp_packets_in_flight() < tcp_snd_cwnd() */
	u8 stale_count;		/* subflow->stale_count: reinjection choice */
	u8 stale_inactive;	/* __mptcp_subflow_active() && !active */
	u8 memory_full;		/* !sk_stream_memory_free(ssk), 0 = room */
	u8 ca_loss;		/* icsk_ca_state == TCP_CA_Loss (after an RTO) */
	u32 srtt_us;		/* tp->srtt_us >> 3, 0 = no sample yet */
	u32 min_rtt_us;		/* tcp_min_rtt(tp), ~0U = no sample yet */
	u32 snd_cwnd;		/* tcp_snd_cwnd(tp), segments */
	u32 packets_in_flight;	/* tcp_packets_in_flight(tp) */
	u32 mss;		/* tp->mss_cache, bytes */
	u32 wmem_queued;	/* sk_wmem_queued, bytes (truesize): linger time */
	u64 pacing_rate;	/* sk_pacing_rate, bytes/s */
	u64 queued;		/* tp->write_seq - tp->snd_una, bytes */
	u64 unsent;		/* tp->write_seq - tp->snd_nxt, bytes */
	u64 bytes_acked;	/* tp->bytes_acked, cumulative */
	u64 bytes_sent;		/* tp->bytes_sent, cumulative */
	u64 bytes_retrans;	/* tp->bytes_retrans, cumulative */
};

struct mpqoe_sched_input {
	u64 now_us;		/* a monotonic clock, e.g. tcp_clock_us() */
	u8 n;			/* valid entries in sf[] (more are ignored) */
	u8 reinject;		/* choose for a reinjection, not new data */
	u32 burst;		/* msk->snd_burst as upstream sets it, 0 = none */
	u32 chunk;		/* unsent bytes of the send queue's first chunk */
	struct mpqoe_subflow_view sf[MPQOE_MAX_SUBFLOWS];
};

/*
 * Per-subflow state is kept in slots keyed by subflow id: a slot lives as
 * long as its id appears in the snapshots, so subflows may come, go and be
 * reordered between two calls.
 */
struct mpqoe_slots {
	u32 id[MPQOE_MAX_SUBFLOWS];
	u8 used;		/* bitmask of used slots */
};

/*
 * How much the chosen subflow may take now. Upstream's push hands the chosen
 * subflow whole chunks of the connection's send queue (struct
 * mptcp_data_frag, at most a page fragment) until the burst is spent; the
 * glue lowers the burst to the chunks that fit in @bytes, see
 * mpqoe_fit_burst().
 */
struct mpqoe_room {
	u64 bytes;		/* MPQOE_ROOM_ANY: no limit beyond the burst */
	u8 hard;		/* never more than @bytes, even one chunk */
};

#define MPQOE_ROOM_ANY		MPQOE_U64_MAX

/* dft: mptcp_subflow_get_send() of Linux 6.12 */
struct mpqoe_dft_state {
	struct mpqoe_slots slots;
	u64 avg_pacing_rate[MPQOE_MAX_SUBFLOWS];	/* subflow->avg_pacing_rate */
};

/* minrtt: the default scheduler of the multipath-tcp.org kernel */
struct mpqoe_minrtt_state {
	u32 calls;		/* selections made (no per-subflow state) */
};

/* Packet injection rate (lambda) of one subflow, see ALGORITHMS.md. */
struct mpqoe_rate {
	u64 win_start_us;	/* start of the current measuring window */
	u64 win_start_sent;	/* new data sent at that time */
	u64 lambda;		/* bytes/s, EWMA over windows */
	u8 has_lambda;		/* lambda holds at least one window */
};

/* gr_sty, tp_sty, tr_sty: the sticky schedulers */
struct mpqoe_sticky_state {
	struct mpqoe_slots slots;
	struct mpqoe_rate rate[MPQOE_MAX_SUBFLOWS];
	u32 cur_id;		/* subflow of the previous selection */
	u8 has_cur;
	u8 sticking;		/* committed to stay on cur_id */
};

struct mpqoe_gr_sty_state {
	struct mpqoe_sticky_state s;
};

struct mpqoe_tp_sty_state {
	struct mpqoe_sticky_state s;
};

struct mpqoe_tr_sty_state {
	struct mpqoe_sticky_state s;
};

/* bnaware: per-subflow send-buffer cap (Komatsu et al.) */
struct mpqoe_bn_subflow {
	u64 ini_pace;		/* bytes/s; 0 = not measured yet */
	u64 max_wmem;		/* bytes; meaningful once ini_pace != 0 */
	u64 sent_at_sel;	/* new data sent at the previous selection */
	u8 was_selected;	/* sent_at_sel is valid */
	u8 reached;		/* srtt has reached 2 * min_rtt */
};

struct mpqoe_bnaware_state {
	struct mpqoe_slots slots;
	u64 avg_pacing_rate[MPQOE_MAX_SUBFLOWS];
	struct mpqoe_bn_subflow sf[MPQOE_MAX_SUBFLOWS];
};

/* daps: delay-aware packet scheduling (Sarwar et al. 2013) */
struct mpqoe_daps_subflow {
	u64 last_queued;	/* queued at the previous call */
	u64 last_acked;		/* bytes_acked at the previous call */
	s64 credit;		/* bytes still to assign to the open round */
	u64 round_bytes;	/* planned cwnd * mss: bytes of one round */
	u32 delay;		/* one-way delay in quanta (d_i) */
	u32 next;		/* arrival time of the open round, quanta */
	u32 srtt_plan;		/* srtt when the cycle began: ties */
};

struct mpqoe_daps_state {
	struct mpqoe_slots slots;
	struct mpqoe_daps_subflow sf[MPQOE_MAX_SUBFLOWS];
	u32 end;		/* cycle length in quanta (lcm of delays) */
	u32 vt;			/* arrival time of the last chosen round */
	u8 cycle;		/* slot mask of the current cycle */
};

void mpqoe_dft_init(struct mpqoe_dft_state *st);
int mpqoe_dft_select(struct mpqoe_dft_state *st,
		     const struct mpqoe_sched_input *in);
void mpqoe_minrtt_init(struct mpqoe_minrtt_state *st);
int mpqoe_minrtt_select(struct mpqoe_minrtt_state *st,
			const struct mpqoe_sched_input *in);
void mpqoe_gr_sty_init(struct mpqoe_gr_sty_state *st);
int mpqoe_gr_sty_select(struct mpqoe_gr_sty_state *st,
			const struct mpqoe_sched_input *in);
void mpqoe_tp_sty_init(struct mpqoe_tp_sty_state *st);
int mpqoe_tp_sty_select(struct mpqoe_tp_sty_state *st,
			const struct mpqoe_sched_input *in);
void mpqoe_tr_sty_init(struct mpqoe_tr_sty_state *st);
int mpqoe_tr_sty_select(struct mpqoe_tr_sty_state *st,
			const struct mpqoe_sched_input *in);

void mpqoe_bnaware_init(struct mpqoe_bnaware_state *st);
int mpqoe_bnaware_select(struct mpqoe_bnaware_state *st,
			 const struct mpqoe_sched_input *in);
struct mpqoe_room mpqoe_bnaware_room(const struct mpqoe_bnaware_state *st,
				     const struct mpqoe_sched_input *in,
				     int pick);
void mpqoe_daps_init(struct mpqoe_daps_state *st);
int mpqoe_daps_select(struct mpqoe_daps_state *st,
		      const struct mpqoe_sched_input *in);

/*
 * Per-connection counters, shared by all schedulers. A switch is two
 * consecutive data injections on different subflows. Bytes are kept for
 * the first MPQOE_MAX_SUBFLOWS subflow ids seen; later ids add to
 * bytes_other.
 */
struct mpqoe_stats {
	u64 decisions;		/* selections that scheduled a subflow */
	u64 switches;
	u64 injections;		/* calls of mpqoe_stats_inject() with bytes */
	u32 last_id;		/* subflow of the last injection */
	u8 has_last;
	u8 n_ids;		/* valid entries of ids[] and bytes[] */
	u32 ids[MPQOE_MAX_SUBFLOWS];
	u64 bytes[MPQOE_MAX_SUBFLOWS];
	u64 bytes_other;
};

void mpqoe_stats_init(struct mpqoe_stats *s);
void mpqoe_stats_decision(struct mpqoe_stats *s);
void mpqoe_stats_inject(struct mpqoe_stats *s, u32 id, u64 bytes);
unsigned int mpqoe_stats_count(const struct mpqoe_stats *s);
u64 mpqoe_stats_bytes(const struct mpqoe_stats *s, u32 id);

/*
 * The room of minrtt and the sticky schedulers: what the chosen subflow's
 * congestion window can send now beyond its unsent bytes (not hard: at
 * least one chunk), as one decision of the multipath-tcp.org kernel gives
 * a subflow at most that. No limit for a reinjection or no pick.
 */
struct mpqoe_room mpqoe_window_room(const struct mpqoe_sched_input *in,
				    int pick);

/*
 * The burst to give a subflow whose room is @room. @len[0..n-1] are the
 * bytes still to send of the send queue's chunks from its head, up to the
 * one that spends upstream's @burst (or all of them when they do not
 * reach it). Upstream checks the burst only between chunks, so it pushes
 * whole chunks until the burst is spent: when that total fits the room,
 * the burst stays as it is. Otherwise it is lowered to the whole chunks
 * that fit the room, so that the push stops exactly there; when not even
 * the first fits, that first chunk if !room.hard, else 0 (nothing now).
 */
u32 mpqoe_fit_burst(struct mpqoe_room room, const u32 *len, unsigned int n,
		    u32 burst);

#endif /* MPQOE_SCHED_H */

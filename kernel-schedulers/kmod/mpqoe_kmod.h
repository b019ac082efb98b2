/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mpqoe kernel glue: what the files of one scheduler module share.
 *
 * Every module (mpqoe_dft, mpqoe_gr_sty, ...) is the same four glue files
 * (mpqoe_glue.c, mpqoe_conn.c, mpqoe_reg.c, and mpqoe_table.c, which the
 * congestion control modules share), one file of its own
 * (sched_<name>.c: its name and the calls into its core) and the pure-C
 * decision core of that scheduler
 * (../core/). The core is called directly, never through a function
 * pointer.
 */
#ifndef MPQOE_KMOD_H
#define MPQOE_KMOD_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <net/mptcp.h>

#include "mpqoe_features.h"
#include "mpqoe_sched.h"
#include "mpqoe_table.h"

struct mptcp_sock;

/*
 * Per-connection state of whichever core the module carries: each
 * sched_<name>.c uses only its own member.
 */
union mpqoe_algo_state {
	struct mpqoe_dft_state		dft;
	struct mpqoe_minrtt_state	minrtt;
	struct mpqoe_gr_sty_state	gr_sty;
	struct mpqoe_tp_sty_state	tp_sty;
	struct mpqoe_tr_sty_state	tr_sty;
	struct mpqoe_bnaware_state	bnaware;
	struct mpqoe_daps_state		daps;
};

/* Last seen write_seq of one subflow: the base of its next injection. */
struct mpqoe_track {
	u32	id;
	u32	write_seq;
	bool	fin;		/* the subflow's FIN was already queued */
};

/*
 * One MPTCP connection that used this scheduler: its entry in the table
 * (key, serial number, addresses, @e.lock), then the scheduler's own.
 */
struct mpqoe_conn {
	struct mpqoe_entry	e;

	/* The fields below change only under the msk socket lock, always
	 * with @e.lock held; /proc reads them under @e.lock.
	 */
	u64			reinjections;	/* decisions for a reinjection */
	u64			no_subflow;	/* calls that scheduled nothing */
	u64			room_limited;	/* decisions whose burst the room lowered */
	u64			no_room;	/* calls refused: no chunk fit a hard room */
	struct mpqoe_stats	stats;

	/* Used by the scheduler only, under the msk socket lock. */
	u8			ntrack;
	struct mpqoe_track	track[MPQOE_MAX_SUBFLOWS];
	struct mpqoe_sched_input in;
	union mpqoe_algo_state	algo;
};

/* sched_<name>.c: the scheduler's name and its own core, called directly */
extern const char *const mpqoe_sched_name;
void mpqoe_algo_init(union mpqoe_algo_state *st);
int mpqoe_algo_select(union mpqoe_algo_state *st, const struct mpqoe_sched_input *in);
/* what the chosen subflow may take now (MPQOE_ROOM_ANY: upstream's burst) */
struct mpqoe_room mpqoe_algo_room(const union mpqoe_algo_state *st,
				  const struct mpqoe_sched_input *in, int pick);

/* mpqoe_reg.c: the scheduler list of net/mptcp/sched.c */
int mpqoe_reg_init(void);
int mpqoe_reg_add(struct mptcp_sched_ops *ops);
void mpqoe_reg_del(struct mptcp_sched_ops *ops);

/* mpqoe_conn.c: the scheduler's connections in the table (mpqoe_table.h) */
struct mpqoe_conn *mpqoe_conn_new(const struct mptcp_sock *msk, gfp_t gfp);
struct mpqoe_conn *mpqoe_conn_find(const struct mptcp_sock *msk);
void mpqoe_conn_close(struct mpqoe_conn *conn);
void mpqoe_conn_untracked(void);

#endif /* MPQOE_KMOD_H */

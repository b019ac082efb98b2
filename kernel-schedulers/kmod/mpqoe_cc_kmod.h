/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mpqoe coupled congestion control glue: what the files of one congestion
 * control module share.
 *
 * Every module (mpqoe_lia, mpqoe_olia, mpqoe_balia) is the same two glue
 * files (mpqoe_cc_glue.c: the tcp_congestion_ops hooks, the connections'
 * members and lines, /proc/net/mpqoe_<name>_samples; mpqoe_table.c, shared
 * with the schedulers: the table and /proc/net/mpqoe_<name>), one file of its own
 * (cc_<name>.c: its ops, module init and exit, the calls into its core and
 * its /proc fields) and the pure-C arithmetic of ../core (cc_common.c and
 * cc_<name>.c), called directly, never through a function pointer.
 */
#ifndef MPQOE_CC_KMOD_H
#define MPQOE_CC_KMOD_H

#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <net/tcp.h>

#include "mpqoe_cc.h"
#include "mpqoe_table.h"

#define MPQOE_CC_SLOTS		MPQOE_CC_MAX_PATHS

/* One member subflow of a connection (or the last one that held the slot). */
struct mpqoe_cc_slot {
	struct sock		*sk;	/* the member's tcp_sock, NULL: left or free */
	u32			id;	/* its subflow_id */
	bool			used;	/* ever held: shown in /proc */
	struct mpqoe_olia_loss	loss;	/* snd_una at its last two loss events */
	/* the last values of a member that left */
	u32			cwnd;
	u32			ssthresh;
	u32			srtt_us;
	/* what the algorithm computed last for this member (cc_<name>.c) */
	u64			w;	/* acked packets per +1, 2^-16 */
	u64			alpha;	/* BALIA alpha_r, 2^-16 */
	s32			eps_num; /* OLIA alpha_r = eps_num / eps_den */
	u32			eps_den;
	u32			inter_loss; /* OLIA l_r, bytes */
	u32			md;	/* BALIA: packets taken off at the last loss */
};

/* What a sample was taken for (the ev= of /proc/net/mpqoe_<name>_samples). */
enum mpqoe_cc_ev {
	MPQOE_EV_INC,		/* cong_avoid raised the member's cwnd */
	MPQOE_EV_DEC,		/* ... lowered it (OLIA) */
	MPQOE_EV_LOSS,		/* entry into CWR or Recovery */
	MPQOE_EV_RTO,		/* entry into Loss */
	MPQOE_EV_UNDO,		/* undo_cwnd */
};

/*
 * One sample: the connection's windows when member @slot changed. 88 bytes;
 * @val is what the module's algorithm had computed (cc_<name>.c).
 */
struct mpqoe_cc_sample {
	u64			t_ns;	/* CLOCK_REALTIME */
	u64			val;
	u32			cwnd[MPQOE_CC_SLOTS];
	u32			id[MPQOE_CC_SLOTS];	/* subflow ids */
	u32			ssthresh;	/* of @slot */
	u8			used;	/* bit i: slot i listed */
	u8			slot;
	u8			ev;	/* enum mpqoe_cc_ev */
};

/* A connection's ring of samples: one allocation, fixed at creation. */
struct mpqoe_cc_ring {
	u32			size;
	u64			last_ns;	/* t_ns of the newest sample */
	struct mpqoe_cc_sample	s[] __counted_by(size);
};

/*
 * One MPTCP connection (msk) whose subflows run this module. Listed in the
 * module's table of all connections from the first member's attach until
 * keep_closed evicts it after its last member left; freed after an RCU
 * grace period (mpqoe_table.c).
 *
 * Locks: the table lock (mpqoe_table_lock(), _bh) for membership, then
 * @e.lock (_bh), a leaf lock under which only memory is read and integer
 * arithmetic done. While @e.lock is held, every slot[i].sk is a live
 * tcp_sock: a member leaves its slot in its own ->release(), under
 * @e.lock, before its memory can go.
 */
struct mpqoe_cc_conn {
	struct mpqoe_entry	e;	/* table entry; e.lock guards what follows */

	u8			members;	/* and the table lock */

	u64			acks;		/* cong_avoid calls of members */
	u64			ss_acks;	/* ... in slow start */
	u64			reno_acks;	/* ... in CA, Reno: one usable path */
	u64			increases;	/* cwnd raised by cong_avoid */
	u64			decreases;	/* cwnd lowered by cong_avoid (OLIA) */
	u64			losses;		/* entries into CWR, Recovery or Loss */
	u64			rtos;		/* ... of them into Loss */
	u64			undos;
	u64			collected;	/* OLIA: CA ACKs with B \ M not empty */
	u64			alpha;		/* LIA: the last alpha, 2^-16 */
	u64			samples;	/* taken; the newest is at (samples - 1) % size */
	u64			samples_lost;	/* overwritten by a newer one */
	struct mpqoe_cc_ring	*ring;		/* NULL: no samples (off, or no memory) */

	struct mpqoe_cc_slot	slot[MPQOE_CC_SLOTS];
};

/* icsk_ca_priv of a subflow (at most ICSK_CA_PRIV_SIZE bytes). */
struct mpqoe_cc_priv {
	struct mpqoe_cc_conn	*conn;	/* NULL: not a member (plain TCP: Reno) */
	struct mpqoe_cc_carry	carry;
	unsigned long		retry;	/* jiffies: no attach attempt before */
	u32			magic;	/* MPQOE_CC_MAGIC while a member */
	u8			slot;
	u8			flags;
};

#define MPQOE_CC_MAGIC		0x6d706363	/* "mpcc" */
#define MPQOE_CC_NO_SLOT	BIT(0)	/* the connection had no free slot */

/* cc_<name>.c: the module's core, called directly, with conn->lock held */
u32 mpqoe_ccm_cong_avoid(struct mpqoe_cc_conn *conn, const struct mpqoe_cc_view *v,
			 unsigned int self, u32 acked, struct mpqoe_cc_carry *c,
			 bool *reno);
u32 mpqoe_ccm_ssthresh(struct mpqoe_cc_conn *conn, const struct mpqoe_cc_view *v,
		       unsigned int self);
void mpqoe_ccm_show(struct seq_file *seq, const struct mpqoe_cc_conn *conn);
/* a sample's algorithm value: what to keep for member @self, how to print it */
u64 mpqoe_ccm_sample(const struct mpqoe_cc_conn *conn, unsigned int self);
void mpqoe_ccm_show_sample(struct seq_file *seq, u64 val);
/* OLIA's loss marks (no-ops elsewhere): a new member, a loss event, l_r */
void mpqoe_ccm_loss_init(struct mpqoe_cc_slot *s, u32 snd_una);
void mpqoe_ccm_loss_event(struct mpqoe_cc_slot *s, u32 snd_una);
u32 mpqoe_ccm_inter_loss(const struct mpqoe_cc_slot *s, u32 snd_una);

/* mpqoe_cc_glue.c: the ops of every module, and what module init/exit do */
void mpqoe_cc_init(struct sock *sk);
void mpqoe_cc_release(struct sock *sk);
u32 mpqoe_cc_ssthresh(struct sock *sk);
void mpqoe_cc_cong_avoid(struct sock *sk, u32 ack, u32 acked);
void mpqoe_cc_set_state(struct sock *sk, u8 new_state);
u32 mpqoe_cc_undo_cwnd(struct sock *sk);
int mpqoe_cc_module_init(struct tcp_congestion_ops *ops);
void mpqoe_cc_module_exit(struct tcp_congestion_ops *ops);

/* /proc helpers for cc_<name>.c */
void mpqoe_cc_show_frac(struct seq_file *seq, u64 v, unsigned int shift);

#endif /* MPQOE_CC_KMOD_H */

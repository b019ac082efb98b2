// SPDX-License-Identifier: GPL-2.0
/*
 * mpqoe scheduler glue: struct mptcp_sched_ops for one decision core.
 *
 * Each decision takes a snapshot of every subflow (struct
 * mpqoe_subflow_view), asks the core (a direct call) and applies its
 * answer the way net/mptcp/sched.c expects: the chosen subflow gets
 * ->scheduled set, 0 is returned; -EINVAL when nothing can send now.
 * The kernel asks through one of two interfaces, chosen at build time from
 * its headers (mpqoe_features.h, made by kernel-features): get_subflow(msk,
 * data) with data->reinject (Linux 6.12), or get_send(msk) and
 * get_retrans(msk) (Linux 6.16 on). Both end in mpqoe_decide().
 * Only inline helpers of net/mptcp/protocol.h and <net/tcp.h> and exported
 * functions are called. What the module needs of the kernel's static or
 * unexported helpers is copied below, each saying where it comes from.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>
#include <net/ipv6.h>
#include <net/mptcp.h>
#include <net/tcp.h>

#include "protocol.h"
#include "mpqoe_kmod.h"

/*
 * Copied from MPTCP_SEND_BURST_SIZE, net/mptcp/protocol.c of Linux 6.12:
 * defined in that .c file, not in protocol.h.
 */
#define MPQOE_SEND_BURST_SIZE	((1 << 16) - \
				 sizeof(struct tcphdr) - \
				 MAX_TCP_OPTION_SPACE - \
				 sizeof(struct ipv6hdr) - \
				 sizeof(struct frag_hdr))

/* chunks of the send queue looked at for one burst (a burst is 64 kB at most) */
#define MPQOE_CHUNKS		16

#define MPQOE_TCPF_FIN_SENT	(TCPF_FIN_WAIT1 | TCPF_FIN_WAIT2 | TCPF_CLOSING | \
				 TCPF_LAST_ACK | TCPF_TIME_WAIT)

/*
 * Copied from mptcp_subflow_active(), net/mptcp/protocol.c of Linux
 * 6.12 (not exported in 6.12), without what it does besides deciding:
 * clearing subflow->stale and counting MPTCP_MIB_SUBFLOWRECOVER, which
 * would need mptcp_subflow_set_active() (not exported either). The kernel
 * still does both: __subflow_push_pending() calls mptcp_subflow_active() on
 * the subflow it pushes to, and mptcp_pm_subflow_chk_stale() on activity.
 */
static bool mpqoe_subflow_active(struct mptcp_subflow_context *subflow)
{
	const struct sock *ssk = mptcp_subflow_tcp_sock(subflow);

	if (unlikely(subflow->stale) &&
	    subflow->stale_rcv_tstamp == READ_ONCE(tcp_sk(ssk)->rcv_tstamp))
		return false;
	return __mptcp_subflow_active(subflow);
}

/*
 * Copied from mptcp_timeout_from_subflow(), net/mptcp/protocol.c (static
 * there): the retransmit timer's expiry is icsk_timeout in 6.12,
 * tcp_timeout_expires() in later kernels.
 */
static long mpqoe_timeout(const struct mptcp_subflow_context *subflow)
{
	const struct sock *ssk = mptcp_subflow_tcp_sock(subflow);

#if MPQOE_HAVE_TIMEOUT_EXPIRES
	return inet_csk(ssk)->icsk_pending && !subflow->stale_count ?
	       tcp_timeout_expires(ssk) - jiffies : 0;
#else
	return inet_csk(ssk)->icsk_pending && !subflow->stale_count ?
	       inet_csk(ssk)->icsk_timeout - jiffies : 0;
#endif
}

/*
 * Copied from __sk_stream_memory_free(), include/net/sock.h of Linux
 * 6.12, for a TCP subflow: tcp_stream_memory_free() (exported) is
 * called directly instead of through sk_prot, so the module makes no
 * indirect call at all (see the IBT note in mpqoe_reg.c).
 */
static bool mpqoe_memory_free(const struct sock *ssk)
{
	if (READ_ONCE(ssk->sk_wmem_queued) >= READ_ONCE(ssk->sk_sndbuf))
		return false;
	return tcp_stream_memory_free(ssk, 0);
}

static void mpqoe_view(struct mpqoe_subflow_view *v, struct mptcp_subflow_context *subflow)
{
	const struct sock *ssk = mptcp_subflow_tcp_sock(subflow);
	const struct tcp_sock *tp = tcp_sk(ssk);
	u32 cwnd = tcp_snd_cwnd(tp);
	u32 inflight = tcp_packets_in_flight(tp);

	v->id = subflow->subflow_id;
	v->active = mpqoe_subflow_active(subflow);
	v->backup = subflow->backup || subflow->request_bkup;
	v->cwnd_space = inflight < cwnd;
	v->stale_count = subflow->stale_count;
	v->stale_inactive = !v->active && __mptcp_subflow_active(subflow);
	v->memory_full = !mpqoe_memory_free(ssk);
	v->ca_loss = inet_csk(ssk)->icsk_ca_state == TCP_CA_Loss;
	v->wmem_queued = READ_ONCE(ssk->sk_wmem_queued);
	v->srtt_us = tp->srtt_us >> 3;
	v->min_rtt_us = tcp_min_rtt(tp);
	v->snd_cwnd = cwnd;
	v->packets_in_flight = inflight;
	v->mss = tp->mss_cache;
	v->pacing_rate = READ_ONCE(ssk->sk_pacing_rate);
	v->queued = (u32)(READ_ONCE(tp->write_seq) - tp->snd_una);
	v->unsent = (u32)(READ_ONCE(tp->write_seq) - tp->snd_nxt);
	v->bytes_acked = tp->bytes_acked;
	v->bytes_sent = tp->bytes_sent;
	v->bytes_retrans = tp->bytes_retrans;
}

/*
 * Data reaches a subflow only after a decision that scheduled it, so
 * the growth of each subflow's write_seq between two calls is one data
 * injection on it. The subflow's own FIN takes one sequence number: not
 * data. Called with conn->e.lock held.
 */
static void mpqoe_account(struct mpqoe_conn *conn, struct mptcp_sock *msk)
{
	struct mpqoe_track now[MPQOE_MAX_SUBFLOWS];
	struct mptcp_subflow_context *subflow;
	u8 n = 0, i;

	mptcp_for_each_subflow(msk, subflow) {
		const struct sock *ssk = mptcp_subflow_tcp_sock(subflow);
		u32 seq = READ_ONCE(tcp_sk(ssk)->write_seq);
		bool fin = (1 << READ_ONCE(ssk->sk_state)) & MPQOE_TCPF_FIN_SENT;
		u32 id = subflow->subflow_id;

		if (n == MPQOE_MAX_SUBFLOWS)
			break;
		now[n].id = id;
		now[n].write_seq = seq;
		now[n].fin = fin;
		for (i = 0; i < conn->ntrack; i++) {
			struct mpqoe_track *t = &conn->track[i];
			u32 bytes;

			if (t->id != id)
				continue;
			bytes = seq - t->write_seq;
			if (fin && !t->fin && bytes)
				bytes--;
			if (bytes)
				mpqoe_stats_inject(&conn->stats, id, bytes);
			break;
		}
		n++;
	}
	memcpy(conn->track, now, n * sizeof(now[0]));
	conn->ntrack = n;
}

/* The connection's token and addresses, for /proc; called with conn->e.lock held. */
static void mpqoe_note_conn(struct mpqoe_conn *conn, const struct mptcp_sock *msk)
{
	conn->e.token = READ_ONCE(msk->token);
	mpqoe_entry_note_addr(&conn->e, (const struct sock *)msk);
}

/*
 * The burst computation of mptcp_subflow_get_send(), net/mptcp/protocol.c
 * of Linux 6.12 (not exported): the next burst may fill the peer's
 * window.
 */
static int mpqoe_burst(const struct mptcp_sock *msk)
{
	return min_t(int, MPQOE_SEND_BURST_SIZE, READ_ONCE(msk->wnd_end) - msk->snd_nxt);
}

/*
 * How many bytes the next chunks of the send queue (the pending struct
 * mptcp_data_frag, from msk->first_pending on, see mptcp_send_next() in
 * protocol.h) still have to send: @len[0..returned-1], at most @max chunks
 * or until they add up to @enough; *@more says whether the walk stopped at
 * @max with more chunks left. Called with the msk socket lock held, as the
 * scheduler is.
 */
static unsigned int mpqoe_chunks(struct mptcp_sock *msk, u32 *len, unsigned int max,
				 u32 enough, bool *more)
{
	struct mptcp_data_frag *dfrag = msk->first_pending;
	unsigned int n = 0;
	u64 sum = 0;

	*more = false;
	while (dfrag && sum < enough) {
		if (n == max) {
			*more = true;
			break;
		}
		len[n] = dfrag->data_len - dfrag->already_sent;
		sum += len[n++];
		if (list_is_last(&dfrag->list, &msk->rtx_queue))
			break;
		dfrag = list_next_entry(dfrag, list);
	}
	return n;
}

/* Can @ssk take the data now? (the check of mptcp_subflow_get_send()) */
static bool mpqoe_can_queue(struct sock *ssk, bool reinject)
{
	return reinject || mpqoe_memory_free(ssk);
}

/* @burst: the new msk->snd_burst, 0 to leave it (upstream's rule) */
static int mpqoe_schedule(struct mptcp_sock *msk, struct mptcp_subflow_context *subflow,
			  int burst)
{
	if (burst)
		msk->snd_burst = burst;
	/*
	 * The body of mptcp_subflow_set_scheduled(), net/mptcp/sched.c of
	 * Linux 6.12 (not exported in 6.12).
	 */
	WRITE_ONCE(subflow->scheduled, true);
	return 0;
}

/* No per-connection state (allocation failed): first subflow that can send. */
static int mpqoe_get_untracked(struct mptcp_sock *msk, bool reinject)
{
	struct mptcp_subflow_context *subflow;

	mpqoe_conn_untracked();
	mptcp_for_each_subflow(msk, subflow) {
		struct sock *ssk = mptcp_subflow_tcp_sock(subflow);
		const struct tcp_sock *tp = tcp_sk(ssk);

		if (mpqoe_subflow_active(subflow) &&
		    tcp_packets_in_flight(tp) < tcp_snd_cwnd(tp) &&
		    mpqoe_can_queue(ssk, reinject))
			return mpqoe_schedule(msk, subflow,
					      reinject ? 0 : mpqoe_burst(msk));
	}
	return -EINVAL;
}

static int mpqoe_decide(struct mptcp_sock *msk, bool reinject)
{
	struct mptcp_subflow_context *ctx[MPQOE_MAX_SUBFLOWS];
	struct mptcp_subflow_context *subflow;
	struct mpqoe_sched_input *in;
	u32 chunk[MPQOE_CHUNKS] = { 0 };
	unsigned int nchunk = 0;
	struct mpqoe_conn *conn;
	struct sock *ssk = NULL;
	bool limited = false, more = false;
	struct mpqoe_room room;
	unsigned int i;
	long tout = 0;
	int burst = 0;
	u32 fit;
	int idx;
	u8 n = 0;

	rcu_read_lock();
	conn = mpqoe_conn_find(msk);
	if (unlikely(!conn)) {
		rcu_read_unlock();
		return mpqoe_get_untracked(msk, reinject);
	}

	in = &conn->in;
	mptcp_for_each_subflow(msk, subflow) {
		if (n == MPQOE_MAX_SUBFLOWS)
			break;
		ctx[n] = subflow;
		mpqoe_view(&in->sf[n], subflow);
		if (in->sf[n].active)
			tout = max(tout, mpqoe_timeout(subflow));
		n++;
	}
	/*
	 * The body of __mptcp_set_timeout(), net/mptcp/protocol.c (static
	 * there), called as mptcp_subflow_get_send() does; its fallback is
	 * TCP_RTO_MIN in 6.12, the msk's icsk_rto_min in later kernels.
	 */
	if (!reinject)
#if MPQOE_TIMER_FALLBACK_RTO_MIN
		msk->timer_ival = tout > 0 ? tout :
				  READ_ONCE(inet_csk((struct sock *)msk)->icsk_rto_min);
#else
		msk->timer_ival = tout > 0 ? tout : TCP_RTO_MIN;
#endif

	in->n = n;
	in->reinject = reinject;
	if (!reinject) {
		burst = mpqoe_burst(msk);
		nchunk = mpqoe_chunks(msk, chunk, MPQOE_CHUNKS, max(burst, 1), &more);
	}
	in->burst = max(burst, 0);
	in->chunk = chunk[0];
	in->now_us = tcp_clock_us();
	idx = mpqoe_algo_select(&conn->algo, in);
	if (idx >= 0 && idx < n) {
		ssk = mptcp_subflow_tcp_sock(ctx[idx]);
		if (!mpqoe_can_queue(ssk, reinject))
			ssk = NULL;
	}
	if (ssk && burst > 0) {
		room = mpqoe_algo_room(&conn->algo, in, idx);
		if (more && room.bytes != MPQOE_ROOM_ANY) {
			/* more small chunks than looked at: push only those seen */
			for (fit = 0, i = 0; i < nchunk; i++)
				fit += chunk[i];
			burst = min_t(u32, fit, burst);
		}
		/* the burst, lowered to the whole chunks that fit the room */
		fit = mpqoe_fit_burst(room, chunk, nchunk, burst);
		limited = fit != (u32)burst;
		burst = fit;
		if (!burst)	/* a hard room that not one chunk fits */
			ssk = NULL;
	}

	spin_lock_bh(&conn->e.lock);
	mpqoe_account(conn, msk);
	if (!conn->e.token)
		mpqoe_note_conn(conn, msk);
	if (ssk) {
		mpqoe_stats_decision(&conn->stats);
		conn->reinjections += reinject;
		conn->room_limited += limited;
	} else {
		conn->no_subflow++;
		conn->no_room += limited;
	}
	spin_unlock_bh(&conn->e.lock);
	rcu_read_unlock();

	if (!ssk)
		return -EINVAL;
	return mpqoe_schedule(msk, ctx[idx], burst);
}

#if MPQOE_SCHED_API == 2
static int mpqoe_get_send(struct mptcp_sock *msk)
{
	return mpqoe_decide(msk, false);
}

static int mpqoe_get_retrans(struct mptcp_sock *msk)
{
	return mpqoe_decide(msk, true);
}
#else
static int mpqoe_get_subflow(struct mptcp_sock *msk, struct mptcp_sched_data *data)
{
	return mpqoe_decide(msk, data->reinject);
}
#endif

/* May run in softirq (mptcp_sk_clone_init()) and under rcu_read_lock(). */
static void mpqoe_init(struct mptcp_sock *msk)
{
	if (!mpqoe_conn_new(msk, GFP_ATOMIC))
		pr_warn_ratelimited("no memory for connection state: not counted\n");
}

static void mpqoe_release(struct mptcp_sock *msk)
{
	struct mpqoe_conn *conn;

	rcu_read_lock();
	conn = mpqoe_conn_find(msk);
	if (conn) {
		spin_lock_bh(&conn->e.lock);
		mpqoe_account(conn, msk);	/* the last injection */
		spin_unlock_bh(&conn->e.lock);
		mpqoe_conn_close(conn);
	}
	rcu_read_unlock();
}

static struct mptcp_sched_ops mpqoe_ops = {
#if MPQOE_SCHED_API == 2
	.get_send	= mpqoe_get_send,
	.get_retrans	= mpqoe_get_retrans,
#else
	.get_subflow	= mpqoe_get_subflow,
#endif
	.init		= mpqoe_init,
	.release	= mpqoe_release,
	.owner		= THIS_MODULE,
};

static int __init mpqoe_module_init(void)
{
	struct mptcp_sched_ops *ops = &mpqoe_ops;
	int err;

#ifdef MPTCP_SUBFLOWS_MAX
	BUILD_BUG_ON(MPQOE_MAX_SUBFLOWS < MPTCP_SUBFLOWS_MAX);
#endif
	strscpy(ops->name, mpqoe_sched_name, sizeof(ops->name));
	err = mpqoe_reg_init();
	if (err)
		return err;
	err = mpqoe_table_init();
	if (err)
		return err;
	err = mpqoe_reg_add(ops);
	if (err) {
		pr_err("cannot register scheduler \"%s\": %d\n", ops->name, err);
		mpqoe_table_exit();
		return err;
	}
	pr_info("scheduler \"%s\" registered\n", ops->name);
	return 0;
}

static void __exit mpqoe_module_exit(void)
{
	mpqoe_reg_del(&mpqoe_ops);
	mpqoe_table_exit();
}

module_init(mpqoe_module_init);
module_exit(mpqoe_module_exit);

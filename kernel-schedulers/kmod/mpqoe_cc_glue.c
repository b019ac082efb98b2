// SPDX-License-Identifier: GPL-2.0
/*
 * mpqoe coupled congestion control glue: struct tcp_congestion_ops hooks
 * for one core (LIA, OLIA or BALIA), the table of connections and
 * /proc/net/mpqoe_<name>.
 *
 * A hook of a subflow runs under that subflow's socket lock only; two
 * subflows of one connection run theirs concurrently, and the hooks may
 * run with MPTCP's own locks held, so the module never walks
 * msk->conn_list and never takes an MPTCP lock. Instead every subflow
 * running this module joins a per-connection structure owned by the module
 * (struct mpqoe_cc_conn, found by msk address and token), lazily from its
 * first hook that can see its connection, and leaves it in ->release(),
 * which the kernel calls before the socket's memory goes. A hook takes a
 * snapshot of the members under the connection's leaf lock
 * (struct mpqoe_cc_view) and calls the core directly.
 *
 * A socket that is not an MPTCP subflow (plain TCP), a subflow whose
 * connection is not known yet, one that fell back to TCP and one for which
 * no slot or memory was left run Reno through the kernel's exported
 * tcp_reno_* functions, called directly. The core itself is Reno when at
 * most one member is usable.
 *
 * /proc/net/mpqoe_<name> (one per network namespace, the connections of
 * the subflows' namespace), after a header line
 * "# mpqoe_<name> v1 untracked=<n> overflow=<n>", one line per connection:
 *
 *   conn=<n> state=live|closed token=<hex> local=<addr>:<port>
 *   remote=<addr>:<port> start_ns=<ns> end_ns=<ns> members=<n> usable=<n>
 *   acks=<n> ss_acks=<n> reno_acks=<n> increases=<n> decreases=<n>
 *   losses=<n> rtos=<n> undos=<n> cwnd=<id>:<pkts>,... ssthresh=<id>:<pkts>,...
 *   srtt_us=<id>:<us>,... <fields of the algorithm, see cc_<name>.c>
 *
 * Per-subflow values are listed by subflow id, live for members, the last
 * seen for subflows that left. Writing "clear" drops the namespace's closed
 * connections. The reader keeps no pointer between two read() calls, only
 * the serial number of the next connection.
 *
 * /proc/net/mpqoe_<name>_samples: the values over time. Every connection
 * gets a ring of `samples` entries when it is created (GFP_ATOMIC; none
 * when 0 or out of memory, counted as nomem=); a sample is taken under
 * conn->e.lock when a member's cwnd changes in cong_avoid (at most once per
 * `sample_us` per connection) and on every loss, RTO and undo. After a
 * header "# mpqoe_<name>_samples v1 samples=<n> sample_us=<us> nomem=<n>",
 * one line per kept sample, oldest first:
 *
 *   conn=<n> t_ns=<CLOCK_REALTIME ns> id=<subflow id> ev=inc|dec|loss|rto|undo
 *   ssthresh=<pkts of that member> <value of the algorithm, see cc_<name>.c>
 *   cwnd=<id>:<pkts>,...
 *
 * The summary line of the connection counts them (samples=, and
 * samples_lost= for those overwritten by newer ones).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/proc_fs.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/seq_file_net.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/xarray.h>
#include <net/mptcp.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "protocol.h"
#include "mpqoe_cc_kmod.h"

#define MPQOE_PROC_NAME		KBUILD_MODNAME	/* "mpqoe_<name>" */

/* after a failed allocation, no new attempt for this long */
#define MPQOE_RETRY_JIFFIES	(HZ / 10)

static atomic64_t mpqoe_untracked = ATOMIC64_INIT(0);
static atomic64_t mpqoe_overflow = ATOMIC64_INIT(0);

/* Samples: one ring of this many per connection (0: none), one per this many us at most */
#define MPQOE_SAMPLES_MAX	4096
#define MPQOE_SAMPLE_US_MAX	1000000
static unsigned int samples = 256;
static unsigned int sample_us = 1000;
static atomic64_t mpqoe_ring_nomem = ATOMIC64_INIT(0);

void mpqoe_entry_free(struct mpqoe_entry *e)
{
	struct mpqoe_cc_conn *conn = container_of(e, struct mpqoe_cc_conn, e);

	kfree(conn->ring);
	kfree(conn);
}

/* for connections created from now on */
static int mpqoe_samples_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err = mpqoe_param_uint("samples", val, MPQOE_SAMPLES_MAX, &n);

	if (!err)
		WRITE_ONCE(samples, n);
	return err;
}

static const struct kernel_param_ops mpqoe_samples_ops = {
	.set	= mpqoe_samples_set,
	.get	= param_get_uint,
};

module_param_cb(samples, &mpqoe_samples_ops, &samples, 0644);
__MODULE_PARM_TYPE(samples, "uint");
MODULE_PARM_DESC(samples,
		 "samples kept per connection for /proc/net/mpqoe_<name>_samples, 0..4096 (0: off)");

static int mpqoe_sample_us_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err = mpqoe_param_uint("sample_us", val, MPQOE_SAMPLE_US_MAX, &n);

	if (!err)
		WRITE_ONCE(sample_us, n);
	return err;
}

static const struct kernel_param_ops mpqoe_sample_us_ops = {
	.set	= mpqoe_sample_us_set,
	.get	= param_get_uint,
};

module_param_cb(sample_us, &mpqoe_sample_us_ops, &sample_us, 0644);
__MODULE_PARM_TYPE(sample_us, "uint");
MODULE_PARM_DESC(sample_us,
		 "at most one window sample per connection per this many us, 0..1000000 (losses, RTOs and undos always)");

/*
 * The live connection of (@msk, @token), or NULL. Table lock held. The
 * entry of a gone msk whose address is reused is unhashed: it keeps its
 * members until they leave.
 */
static struct mpqoe_cc_conn *mpqoe_conn_lookup(const void *msk, u32 token)
{
	struct mpqoe_entry *e = mpqoe_table_find(msk);

	if (!e)
		return NULL;
	if (e->token == token)
		return container_of(e, struct mpqoe_cc_conn, e);
	__mpqoe_table_unhash(e);
	return NULL;
}

/* A free slot of @conn (one never used first), or -1. conn->e.lock held. */
static int mpqoe_slot_claim(struct mpqoe_cc_conn *conn)
{
	int i, reuse = -1;

	for (i = 0; i < MPQOE_CC_SLOTS; i++) {
		if (conn->slot[i].sk)
			continue;
		if (!conn->slot[i].used)
			return i;
		if (reuse < 0)
			reuse = i;
	}
	return reuse;
}

/*
 * The ring of a new connection, or NULL: samples off, or no memory
 * (counted). Not under a lock, but possibly in softirq: GFP_ATOMIC.
 */
static struct mpqoe_cc_ring *mpqoe_ring_alloc(void)
{
	unsigned int n = READ_ONCE(samples);
	struct mpqoe_cc_ring *ring;

	if (!n)
		return NULL;
	ring = kzalloc(struct_size(ring, s, n), GFP_ATOMIC | __GFP_NOWARN);
	if (!ring) {
		atomic64_inc(&mpqoe_ring_nomem);
		return NULL;
	}
	ring->size = n;
	return ring;
}

/*
 * Takes a sample of @conn for member @self, whose cwnd is now @cwnd: an
 * increase or decrease at most once per sample_us, other events always.
 * conn->e.lock held.
 */
static void mpqoe_sample(struct mpqoe_cc_conn *conn, unsigned int self, u32 cwnd,
			 enum mpqoe_cc_ev ev)
{
	struct mpqoe_cc_ring *ring = conn->ring;
	struct mpqoe_cc_sample *smp;
	unsigned int i;
	u64 now;

	if (!ring)
		return;
	now = ktime_get_real_ns();
	if (ev <= MPQOE_EV_DEC && conn->samples &&
	    now - ring->last_ns < (u64)READ_ONCE(sample_us) * NSEC_PER_USEC)
		return;
	self %= MPQOE_CC_SLOTS;
	if (conn->samples >= ring->size)
		conn->samples_lost++;
	smp = &ring->s[conn->samples % ring->size];
	conn->samples++;
	ring->last_ns = now;
	smp->t_ns = now;
	smp->val = mpqoe_ccm_sample(conn, self);
	smp->slot = self;
	smp->ev = ev;
	smp->used = 0;
	for (i = 0; i < MPQOE_CC_SLOTS; i++) {
		const struct mpqoe_cc_slot *s = &conn->slot[i];

		if (!s->used)
			continue;
		smp->used |= BIT(i);
		smp->id[i] = s->id;
		smp->cwnd[i] = i == self ? cwnd : s->sk ? READ_ONCE(tcp_sk(s->sk)->snd_cwnd) :
			       s->cwnd;
	}
	smp->ssthresh = conn->slot[self].sk ?
			READ_ONCE(tcp_sk(conn->slot[self].sk)->snd_ssthresh) :
			conn->slot[self].ssthresh;
}

/*
 * Joins @sk to its connection's structure, creating it on the first
 * member; returns it, or NULL (plain TCP, connection not known yet or
 * without token, no memory, no slot). Called from a hook, under @sk's
 * socket lock: the subflow context and its ->conn change only under that
 * lock, and the msk lives as long as the context (subflow.c holds a
 * reference on it), so reading its token and addresses here is safe.
 */
static struct mpqoe_cc_conn *mpqoe_attach(struct sock *sk, struct mpqoe_cc_priv *priv)
{
	struct mptcp_subflow_context *ctx;
	struct mpqoe_cc_conn *conn, *fresh = NULL;
	struct sock *msk;
	u32 token;
	int slot;

	if (likely(priv->conn))
		return priv->conn;
	if (!sk_is_mptcp(sk) || (priv->flags & MPQOE_CC_NO_SLOT) ||
	    ((1 << sk->sk_state) & (TCPF_LISTEN | TCPF_CLOSE)))
		return NULL;
	ctx = mptcp_subflow_ctx(sk);
	if (!ctx || !ctx->conn)
		return NULL;
	msk = ctx->conn;
	token = READ_ONCE(mptcp_sk(msk)->token);
	if (!token)		/* fallen back, or being torn down: nothing to couple */
		return NULL;
	if (priv->retry && time_before(jiffies, priv->retry))
		return NULL;

	mpqoe_table_lock();
	conn = mpqoe_conn_lookup(msk, token);
	if (!conn) {
		mpqoe_table_unlock();
		fresh = kzalloc(sizeof(*fresh), GFP_ATOMIC);
		if (!fresh)
			goto untracked;
		fresh->ring = mpqoe_ring_alloc();
		mpqoe_entry_init(&fresh->e, msk, sock_net(sk)->net_cookie);
		fresh->e.token = token;
		mpqoe_entry_note_addr(&fresh->e, msk);
		mpqoe_table_lock();
		/* another member may have created it meanwhile */
		conn = mpqoe_conn_lookup(msk, token);
		if (!conn) {
			if (__mpqoe_table_insert(&fresh->e, GFP_ATOMIC)) {
				mpqoe_table_unlock();
				mpqoe_entry_free(&fresh->e);
				goto untracked;
			}
			conn = fresh;
			fresh = NULL;
		}
	}
	spin_lock(&conn->e.lock);
	slot = mpqoe_slot_claim(conn);
	if (slot >= 0) {
		struct mpqoe_cc_slot *s = &conn->slot[slot];

		memset(s, 0, sizeof(*s));
		s->sk = sk;
		s->id = ctx->subflow_id;
		s->used = true;
		s->eps_den = 1;
		mpqoe_ccm_loss_init(s, READ_ONCE(tcp_sk(sk)->snd_una));
		conn->members++;
	}
	spin_unlock(&conn->e.lock);
	mpqoe_table_unlock();
	if (fresh)
		mpqoe_entry_free(&fresh->e);
	if (slot < 0) {
		priv->flags |= MPQOE_CC_NO_SLOT;
		atomic64_inc(&mpqoe_overflow);
		return NULL;
	}
	priv->slot = slot;
	priv->magic = MPQOE_CC_MAGIC;
	priv->retry = 0;
	priv->conn = conn;
	return conn;

untracked:
	atomic64_inc(&mpqoe_untracked);
	priv->retry = jiffies + MPQOE_RETRY_JIFFIES;
	if (!priv->retry)
		priv->retry = 1;
	return NULL;
}

/* Leaves the connection; a no-op on a priv that never attached (zeroed). */
static void mpqoe_detach(struct sock *sk, struct mpqoe_cc_priv *priv)
{
	struct mpqoe_cc_conn *conn = priv->conn;
	struct mpqoe_cc_slot *s;
	const struct tcp_sock *tp;

	if (priv->magic != MPQOE_CC_MAGIC || !conn)
		return;
	tp = tcp_sk(sk);
	mpqoe_table_lock();
	spin_lock(&conn->e.lock);
	s = &conn->slot[priv->slot % MPQOE_CC_SLOTS];
	if (s->sk == sk) {
		s->cwnd = tcp_snd_cwnd(tp);
		s->ssthresh = tp->snd_ssthresh;
		s->srtt_us = tp->srtt_us >> 3;
		s->sk = NULL;
		conn->members--;
	}
	spin_unlock(&conn->e.lock);
	if (!conn->members)
		__mpqoe_table_close(&conn->e);
	mpqoe_table_unlock();
	memset(priv, 0, sizeof(*priv));
}

/*
 * Whether member @sk can send: established (or close-wait), not a join
 * still waiting for its validation, with an RTT sample: the test of
 * __mptcp_subflow_active() and of the multipath-tcp.org modules. Its
 * subflow context is read under RCU (freed with kfree_rcu, cleared with
 * rcu_assign_pointer() on a fallback, net/mptcp/subflow.c).
 */
static bool mpqoe_usable(const struct sock *sk)
{
	const struct mptcp_subflow_context *ctx;
	bool ok;

	if (!((1 << inet_sk_state_load(sk)) & (TCPF_ESTABLISHED | TCPF_CLOSE_WAIT)) ||
	    !READ_ONCE(tcp_sk(sk)->srtt_us))
		return false;
	rcu_read_lock();
	ctx = rcu_dereference(inet_csk(sk)->icsk_ulp_data);
	ok = ctx && ctx->tcp_sock == sk &&
	     (!ctx->request_join || READ_ONCE(ctx->fully_established));
	rcu_read_unlock();
	return ok;
}

/* The members of @conn as the core sees them. conn->e.lock held. */
static void mpqoe_view(const struct mpqoe_cc_conn *conn, const struct sock *self,
		       struct mpqoe_cc_view *v)
{
	unsigned int i;

	memset(v, 0, sizeof(*v));
	v->n = MPQOE_CC_SLOTS;
	for (i = 0; i < MPQOE_CC_SLOTS; i++) {
		const struct mpqoe_cc_slot *s = &conn->slot[i];
		struct mpqoe_cc_path *p = &v->p[i];
		const struct tcp_sock *tp;
		u8 ca_state;

		if (!s->sk)
			continue;
		tp = tcp_sk(s->sk);
		p->cwnd = READ_ONCE(tp->snd_cwnd);
		p->ssthresh = READ_ONCE(tp->snd_ssthresh);
		ca_state = inet_csk(s->sk)->icsk_ca_state;	/* a bit-field: a plain read */
		/* a sibling in CWR or Recovery: PRR is taking its window there */
		if (s->sk != self && (ca_state == TCP_CA_CWR || ca_state == TCP_CA_Recovery))
			p->cwnd = p->ssthresh;
		p->cwnd_clamp = READ_ONCE(tp->snd_cwnd_clamp);
		p->rtt_us = READ_ONCE(tp->srtt_us) >> 3;
		p->mss = READ_ONCE(tp->mss_cache);
		p->inter_loss = mpqoe_ccm_inter_loss(s, READ_ONCE(tp->snd_una));
		p->usable = mpqoe_usable(s->sk);
	}
}

void mpqoe_cc_init(struct sock *sk)
{
	mpqoe_attach(sk, inet_csk_ca(sk));
}

/*
 * Called on every socket that had the ops, whether or not init ran (the
 * msk's own reset in mptcp_init_sock(), sockets that never got
 * established), possibly twice (tcp_disconnect() then destroy), always
 * before the socket's memory goes.
 */
void mpqoe_cc_release(struct sock *sk)
{
	mpqoe_detach(sk, inet_csk_ca(sk));
}

u32 mpqoe_cc_ssthresh(struct sock *sk)
{
	struct mpqoe_cc_priv *priv = inet_csk_ca(sk);
	struct mpqoe_cc_conn *conn = mpqoe_attach(sk, priv);
	struct mpqoe_cc_view v;
	u32 ss;

	mpqoe_cc_carry_reset(&priv->carry);
	if (!conn)
		return tcp_reno_ssthresh(sk);
	spin_lock_bh(&conn->e.lock);
	mpqoe_view(conn, sk, &v);
	ss = mpqoe_ccm_ssthresh(conn, &v, priv->slot);
	spin_unlock_bh(&conn->e.lock);
	return ss;
}

void mpqoe_cc_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct mpqoe_cc_priv *priv = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	struct mpqoe_cc_conn *conn;
	struct mpqoe_cc_view v;
	u32 cwnd, old;
	bool reno = false, ss;

	if (!tcp_is_cwnd_limited(sk))
		return;
	conn = mpqoe_attach(sk, priv);
	if (!conn) {
		tcp_reno_cong_avoid(sk, ack, acked);
		return;
	}
	old = tcp_snd_cwnd(tp);
	ss = tcp_in_slow_start(tp);
	spin_lock_bh(&conn->e.lock);
	mpqoe_view(conn, sk, &v);
	cwnd = mpqoe_ccm_cong_avoid(conn, &v, priv->slot, acked, &priv->carry, &reno);
	conn->acks++;
	if (ss)
		conn->ss_acks++;
	else if (reno)
		conn->reno_acks++;
	if (cwnd > old)
		conn->increases++;
	else if (cwnd < old)
		conn->decreases++;
	if (cwnd != old)
		mpqoe_sample(conn, priv->slot, cwnd, cwnd > old ? MPQOE_EV_INC : MPQOE_EV_DEC);
	spin_unlock_bh(&conn->e.lock);
	if (cwnd != old)
		tcp_snd_cwnd_set(tp, cwnd);
}

void mpqoe_cc_set_state(struct sock *sk, u8 new_state)
{
	struct mpqoe_cc_priv *priv = inet_csk_ca(sk);
	const struct inet_connection_sock *icsk = inet_csk(sk);
	struct mpqoe_cc_conn *conn;
	struct mpqoe_cc_slot *s;

	if (new_state == TCP_CA_Loss)	/* tcp_enter_loss() also on a repeated RTO */
		mpqoe_cc_carry_reset(&priv->carry);
	conn = mpqoe_attach(sk, priv);
	if (!conn || new_state == icsk->icsk_ca_state ||
	    (new_state != TCP_CA_CWR && new_state != TCP_CA_Recovery &&
	     new_state != TCP_CA_Loss))
		return;
	spin_lock_bh(&conn->e.lock);
	conn->losses++;
	if (new_state == TCP_CA_Loss)
		conn->rtos++;
	s = &conn->slot[priv->slot % MPQOE_CC_SLOTS];
	/* OLIA's loss marks: the first event, not a repeated RTO */
	if (!icsk->icsk_retransmits)
		mpqoe_ccm_loss_event(s, READ_ONCE(tcp_sk(sk)->snd_una));
	/* ssthresh is already set, and on an RTO cwnd too */
	mpqoe_sample(conn, priv->slot, tcp_snd_cwnd(tcp_sk(sk)),
		     new_state == TCP_CA_Loss ? MPQOE_EV_RTO : MPQOE_EV_LOSS);
	spin_unlock_bh(&conn->e.lock);
}

u32 mpqoe_cc_undo_cwnd(struct sock *sk)
{
	struct mpqoe_cc_priv *priv = inet_csk_ca(sk);
	struct mpqoe_cc_conn *conn = priv->conn;
	u32 cwnd = tcp_reno_undo_cwnd(sk);

	if (conn) {
		spin_lock_bh(&conn->e.lock);
		conn->undos++;
		mpqoe_sample(conn, priv->slot, cwnd, MPQOE_EV_UNDO);
		spin_unlock_bh(&conn->e.lock);
	}
	return cwnd;
}

/* @v in 2^-@shift as a decimal with 6 places (integer formatting only) */
void mpqoe_cc_show_frac(struct seq_file *seq, u64 v, unsigned int shift)
{
	u64 frac = v & ((1ULL << shift) - 1);

	seq_printf(seq, "%llu.%06llu", v >> shift,
		   (u64)mpqoe_cc_muldiv(frac, 1000000, 1ULL << shift));
}

enum mpqoe_field { MPQOE_F_CWND, MPQOE_F_SSTHRESH, MPQOE_F_SRTT };

static u32 mpqoe_slot_value(const struct mpqoe_cc_slot *s, enum mpqoe_field f)
{
	const struct tcp_sock *tp;

	if (!s->sk)
		return f == MPQOE_F_CWND ? s->cwnd : f == MPQOE_F_SSTHRESH ?
		       s->ssthresh : s->srtt_us;
	tp = tcp_sk(s->sk);
	return f == MPQOE_F_CWND ? READ_ONCE(tp->snd_cwnd) : f == MPQOE_F_SSTHRESH ?
	       READ_ONCE(tp->snd_ssthresh) : READ_ONCE(tp->srtt_us) >> 3;
}

static void mpqoe_show_slots(struct seq_file *seq, const struct mpqoe_cc_conn *conn,
			     const char *key, enum mpqoe_field f)
{
	unsigned int i, n = 0;

	seq_printf(seq, " %s=", key);
	for (i = 0; i < MPQOE_CC_SLOTS; i++) {
		const struct mpqoe_cc_slot *s = &conn->slot[i];

		if (s->used)
			seq_printf(seq, "%s%u:%u", n++ ? "," : "", s->id, mpqoe_slot_value(s, f));
	}
}

void mpqoe_table_show_header(struct seq_file *seq)
{
	seq_printf(seq, " untracked=%lld overflow=%lld",
		   (long long)atomic64_read(&mpqoe_untracked),
		   (long long)atomic64_read(&mpqoe_overflow));
}

void mpqoe_entry_show(struct seq_file *seq, struct mpqoe_entry *e)
{
	struct mpqoe_cc_conn *conn = container_of(e, struct mpqoe_cc_conn, e);
	unsigned int i, usable = 0;

	spin_lock_bh(&e->lock);
	for (i = 0; i < MPQOE_CC_SLOTS; i++)
		usable += conn->slot[i].sk && mpqoe_usable(conn->slot[i].sk);
	mpqoe_entry_show_head(seq, e);
	seq_printf(seq, " members=%u usable=%u", conn->members, usable);
	seq_printf(seq, " acks=%llu ss_acks=%llu reno_acks=%llu increases=%llu decreases=%llu",
		   conn->acks, conn->ss_acks, conn->reno_acks, conn->increases,
		   conn->decreases);
	seq_printf(seq, " losses=%llu rtos=%llu undos=%llu samples=%llu samples_lost=%llu",
		   conn->losses, conn->rtos, conn->undos, conn->samples, conn->samples_lost);
	mpqoe_show_slots(seq, conn, "cwnd", MPQOE_F_CWND);
	mpqoe_show_slots(seq, conn, "ssthresh", MPQOE_F_SSTHRESH);
	mpqoe_show_slots(seq, conn, "srtt_us", MPQOE_F_SRTT);
	mpqoe_ccm_show(seq, conn);
	seq_putc(seq, '\n');
	spin_unlock_bh(&conn->e.lock);
}

static const char *const mpqoe_ev_name[] = {
	[MPQOE_EV_INC]	= "inc",
	[MPQOE_EV_DEC]	= "dec",
	[MPQOE_EV_LOSS]	= "loss",
	[MPQOE_EV_RTO]	= "rto",
	[MPQOE_EV_UNDO]	= "undo",
};

/*
 * /proc/net/mpqoe_<name>_samples: after a header line, one line per kept
 * sample, connection by connection, oldest first. The reader keeps the
 * serial number and the sample number (since the connection began) of the
 * line shown next, a copy of that sample taken under conn->e.lock, and how
 * many samples the connection had when the dump reached it: one dump ends
 * there, even while a live connection keeps sampling.
 */
struct mpqoe_siter {
	struct seq_net_private	p;	/* first: seq_file_net() */
	unsigned long		serial;
	u64			n;
	u64			end;
	struct mpqoe_cc_sample	smp;
};

/*
 * Sample @n of connection @serial of the reader's namespace, the oldest
 * one kept if @n was overwritten, else the first sample of the next
 * connection that has one. Keeps the position even at the end, so that a
 * later read() goes on from there. Under RCU.
 */
static void *mpqoe_siter_find(struct seq_file *seq, unsigned long serial, u64 n)
{
	struct mpqoe_siter *it = seq->private;
	u64 cookie = seq_file_net(seq)->net_cookie;
	struct mpqoe_entry *e;
	unsigned long i;

	it->serial = serial;
	it->n = n;
	for (e = mpqoe_table_first(cookie, serial, &i); e;
	     e = mpqoe_table_first(cookie, i + 1, &i)) {
		struct mpqoe_cc_conn *conn = container_of(e, struct mpqoe_cc_conn, e);
		const struct mpqoe_cc_ring *ring = conn->ring;	/* fixed at creation */
		bool found = false;

		if (!ring)
			continue;
		spin_lock_bh(&e->lock);
		if (i != it->serial) {	/* the dump reaches this connection */
			it->serial = i;
			it->end = conn->samples;
			n = 0;
		}
		if (conn->samples > ring->size)
			n = max(n, conn->samples - ring->size);
		if (n < it->end) {
			it->smp = ring->s[n % ring->size];
			found = true;
		}
		spin_unlock_bh(&e->lock);
		it->n = n;
		if (found)
			return conn;
	}
	return NULL;
}

static void *mpqoe_sseq_start(struct seq_file *seq, loff_t *pos)
	__acquires(RCU)
{
	struct mpqoe_siter *it = seq->private;

	rcu_read_lock();
	if (!*pos) {
		it->serial = 0;	/* no connection has serial 0 */
		it->n = 0;
		it->end = 0;
		return SEQ_START_TOKEN;
	}
	return mpqoe_siter_find(seq, it->serial, it->n);
}

static void *mpqoe_sseq_next(struct seq_file *seq, void *v, loff_t *pos)
{
	struct mpqoe_siter *it = seq->private;

	++*pos;
	return mpqoe_siter_find(seq, it->serial, it->n + 1);
}

static void mpqoe_sseq_stop(struct seq_file *seq, void *v)
	__releases(RCU)
{
	rcu_read_unlock();
}

static int mpqoe_sseq_show(struct seq_file *seq, void *v)
{
	const struct mpqoe_siter *it = seq->private;
	const struct mpqoe_cc_sample *smp = &it->smp;
	unsigned int i, n = 0;

	if (v == SEQ_START_TOKEN) {
		seq_printf(seq, "# %s_samples v1 samples=%u sample_us=%u nomem=%lld\n",
			   MPQOE_PROC_NAME, READ_ONCE(samples), READ_ONCE(sample_us),
			   (long long)atomic64_read(&mpqoe_ring_nomem));
		return 0;
	}
	seq_printf(seq, "conn=%lu t_ns=%llu id=%u ev=%s ssthresh=%u", it->serial, smp->t_ns,
		   smp->id[smp->slot % MPQOE_CC_SLOTS],
		   smp->ev < ARRAY_SIZE(mpqoe_ev_name) ? mpqoe_ev_name[smp->ev] : "?",
		   smp->ssthresh);
	mpqoe_ccm_show_sample(seq, smp->val);
	seq_puts(seq, " cwnd=");
	for (i = 0; i < MPQOE_CC_SLOTS; i++) {
		if (smp->used & BIT(i))
			seq_printf(seq, "%s%u:%u", n++ ? "," : "", smp->id[i], smp->cwnd[i]);
	}
	seq_putc(seq, '\n');
	return 0;
}

static const struct seq_operations mpqoe_sseq_ops = {
	.start	= mpqoe_sseq_start,
	.next	= mpqoe_sseq_next,
	.stop	= mpqoe_sseq_stop,
	.show	= mpqoe_sseq_show,
};

static int __net_init mpqoe_net_init(struct net *net)
{
	if (!proc_create_net(MPQOE_PROC_NAME "_samples", 0444, net->proc_net,
			     &mpqoe_sseq_ops, sizeof(struct mpqoe_siter)))
		return -ENOMEM;
	return 0;
}

static void __net_exit mpqoe_net_exit(struct net *net)
{
	remove_proc_entry(MPQOE_PROC_NAME "_samples", net->proc_net);
}

static struct pernet_operations mpqoe_net_ops = {
	.init = mpqoe_net_init,
	.exit = mpqoe_net_exit,
};

int mpqoe_cc_module_init(struct tcp_congestion_ops *ops)
{
	int err;

	BUILD_BUG_ON(sizeof(struct mpqoe_cc_priv) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(sizeof(struct mpqoe_cc_sample) != 88);	/* docs/coupled-cc.md */
	err = mpqoe_table_init();
	if (err)
		return err;
	err = register_pernet_subsys(&mpqoe_net_ops);
	if (err)
		goto out_table;
	err = tcp_register_congestion_control(ops);
	if (err) {
		pr_err("tcp_register_congestion_control(\"%s\") failed: %d\n", ops->name, err);
		goto out_samples;
	}
	pr_info("congestion control \"%s\" registered\n", ops->name);
	return 0;

out_samples:
	unregister_pernet_subsys(&mpqoe_net_ops);
out_table:
	mpqoe_table_exit();
	return err;
}

/*
 * No socket and no namespace default holds the module any more (each
 * holds a module reference), so every member has left; the unregister
 * waits for an RCU grace period before the table goes.
 */
void mpqoe_cc_module_exit(struct tcp_congestion_ops *ops)
{
	tcp_unregister_congestion_control(ops);
	unregister_pernet_subsys(&mpqoe_net_ops);
	mpqoe_table_exit();
}

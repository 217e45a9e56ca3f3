// SPDX-License-Identifier: MIT
/* Event names to perf_event_attr, by libpfm4: no event tables of our own. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include "counters/resolve.h"
#include "sys/tracefs.h"

/* Idempotent in libpfm4: a no-op once done, redone after pfm_terminate(). */
static int pfm_ready(void)
{
	return pfm_initialize() == PFM_SUCCESS ? 0 : -ENODEV;
}

/* 0, or libpfm4's error (PFM_ERR_*, negative) for pfm_strerror. */
static int encode(const char *name, struct mt_event *ev)
{
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;
	int ret;

	memset(&arg, 0, sizeof(arg));
	memset(&ev->attr, 0, sizeof(ev->attr));
	arg.attr = &ev->attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	/*
	 * Without modifiers, count what perf stat counts: user, kernel and
	 * hypervisor (its attr starts zeroed; only :u, :k and its paranoia
	 * fallback set exclude_hv, parse-events.c and evsel.c). libpfm4 turns
	 * a default without PFM_PLMH into exclude_hv=1 where the PMU has the
	 * level (perf::, measured): counts would differ from perf's. An event's
	 * own :u or :k replaces the default and excludes hv, as in perf. The
	 * backend drops kernel if paranoia says so.
	 */
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3 | PFM_PLMH, PFM_OS_PERF_EVENT,
					&arg);
	if (ret != PFM_SUCCESS)
		return ret;
	snprintf(ev->fstr, sizeof(ev->fstr), "%s", fstr ? fstr : name);
	free(fstr);
	/* libpfm4 leaves size 0 (measured); the kernel wants it. */
	ev->attr.size = sizeof(ev->attr);
	ev->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* Threads and children of the measured task count too. */
	ev->attr.inherit = 1;
	return 0;
}

static void tracepoint_attr(struct mt_event *ev, uint64_t id)
{
	memset(&ev->attr, 0, sizeof(ev->attr));
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.size = sizeof(ev->attr);
	ev->attr.config = id;
	/* Counting, as encode() sets it up: user and kernel, children too. */
	ev->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	ev->attr.inherit = 1;
}

/* "reason=remote_shootdown" to the kernel's "reason == 1": 0, or -EINVAL with bad. */
static int tracepoint_filter(struct mt_event *ev, const char *tp, const char *spec,
			     const struct mt_tracefs_format *fmt, char *bad, size_t bad_len)
{
	const struct mt_tracefs_field *f;
	const struct mt_tracefs_sym *sym;
	const char *eq = strchr(spec, '=');
	char field[MT_TRACEFS_NAME_MAX];
	size_t off, line;
	long long v;
	char *end;

	if (!eq || eq == spec || !eq[1] || (size_t)(eq - spec) >= sizeof(field) ||
	    strchr(eq + 1, '=')) {
		snprintf(bad, bad_len, "%s: /FIELD=VALUE/ expected after the tracepoint\n"
			 "one field, one value: tlb:tlb_flush/reason=remote_shootdown/", ev->name);
		return -EINVAL;
	}
	memcpy(field, spec, (size_t)(eq - spec));
	field[eq - spec] = '\0';
	f = mt_tracefs_field(fmt, field);
	if (!f || !f->numeric) {
		off = (size_t)snprintf(bad, bad_len, "%s: %s has no %sfield %s\nits number fields:",
				       ev->name, tp, f ? "number " : "", field);
		for (unsigned int i = 0; i < fmt->n_fields && off < bad_len; i++)
			if (fmt->fields[i].numeric && strncmp(fmt->fields[i].name, "common_", 7))
				off += (size_t)snprintf(bad + off, bad_len - off, " %s",
							fmt->fields[i].name);
		return -EINVAL;
	}
	/*
	 * The kernel's filter compares a number field with numbers only (a
	 * name there is refused): a name is translated by the format file.
	 */
	errno = 0;
	v = strtoll(eq + 1, &end, 0);
	if (end == eq + 1 || *end || errno) {
		sym = mt_tracefs_sym_find(f, eq + 1);
		if (!sym) {
			off = (size_t)snprintf(bad, bad_len, "%s: no %s %s in its format "
					       "file\n%s: a number%s", ev->name, field, eq + 1,
					       field, f->n_syms ? ", or" : "");
			line = (size_t)(strchr(bad, '\n') ? strchr(bad, '\n') - bad : 0);
			for (unsigned int i = 0; i < f->n_syms && off < bad_len; i++) {
				char sp[MT_TRACEFS_NAME_MAX];

				mt_tracefs_spell(f->syms[i].label, sp, sizeof(sp));
				/* The hint's lines fit 80 columns with "hint: " before them. */
				if (off - line + strlen(sp) > 72) {
					off += (size_t)snprintf(bad + off, bad_len - off, "\n%s:", field);
					line = off - strlen(field) - 1;
				}
				off += (size_t)snprintf(bad + off, bad_len - off, " %s", sp);
			}
			return -EINVAL;
		}
		v = sym->value;
	}
	snprintf(ev->filter, sizeof(ev->filter), "%s == %lld", field, v);
	return 0;
}

/*
 * SYS:NAME[/FIELD=VALUE/] through tracefs. Returns 1 when resolved (or
 * known not to be countable here: ev->unavailable), 0 when it may be
 * libpfm4's (no such tracepoint, no filter; not when last), -EINVAL with
 * bad, -ENOMEM.
 */
static int resolve_tracepoint(const char *name, struct mt_event *ev, bool last, char *bad,
			      size_t bad_len)
{
	const char *slash = strchr(name, '/'), *colon = strchr(name, ':');
	size_t base = slash ? (size_t)(slash - name) : strlen(name);
	char sys[MT_TRACEFS_NAME_MAX], event[MT_TRACEFS_NAME_MAX];
	char tp[MT_TRACEFS_NAME_MAX * 2 + 2];
	char spec[MT_EVENT_NAME_MAX] = "", dir[4096];
	struct mt_tracefs_format *fmt;
	uint64_t id = 0;
	int ret;

	if (!mt_tracefs_is_name(name, base))
		return 0;
	if (slash) {
		size_t n = strlen(slash + 1);

		if (n < 2 || slash[n] != '/' || memchr(slash + 1, '/', n - 1)) {
			snprintf(bad, bad_len, "%s: a filter is /FIELD=VALUE/, closed by '/'\n"
				 "tlb:tlb_flush/reason=remote_shootdown/", name);
			return -EINVAL;
		}
		memcpy(spec, slash + 1, n - 1);
		spec[n - 1] = '\0';
	}
	/* mt_tracefs_is_name checked both lengths. */
	memcpy(sys, name, (size_t)(colon - name));
	sys[colon - name] = '\0';
	snprintf(event, sizeof(event), "%.*s", (int)(base - (size_t)(colon - name) - 1), colon + 1);
	snprintf(tp, sizeof(tp), "%.*s", (int)base, name);
	ret = mt_tracefs_dir(dir, sizeof(dir));
	if (ret) {
		if (!slash && !last)
			return 0;
		tracepoint_attr(ev, 0);
		ev->unavailable = ret;
		snprintf(ev->fstr, sizeof(ev->fstr), "tracepoint %s", tp);
		if (ret == -ENOENT)
			snprintf(ev->why, sizeof(ev->why), "tracefs not mounted: "
				 "mount -t tracefs nodev /sys/kernel/tracing");
		else
			snprintf(ev->why, sizeof(ev->why), "tracefs unreadable here (%.24s): "
				 "run as root", strerror(-ret));
		return 1;
	}
	ret = mt_tracefs_id(dir, sys, event, &id);
	if (ret == -ENOENT || ret == -EINVAL) {
		if (!slash && !last)
			return 0;
		snprintf(bad, bad_len, "%s: no tracepoint %s in tracefs\n"
			 "SYSTEM:NAME as in tracefs events/SYSTEM/NAME (memtlb list: the TLB ones)",
			 name, tp);
		return -EINVAL;
	}
	tracepoint_attr(ev, id);
	snprintf(ev->fstr, sizeof(ev->fstr), "tracepoint %s (id %llu)", tp,
		 (unsigned long long)id);
	if (ret) {
		ev->unavailable = ret;
		snprintf(ev->why, sizeof(ev->why), "tracefs id unreadable: %.40s",
			 strerror(-ret));
		return 1;
	}
	if (!slash)
		return 1;
	fmt = malloc(sizeof(*fmt));
	if (!fmt)
		return -ENOMEM;
	ret = mt_tracefs_format(dir, sys, event, fmt);
	if (ret) {
		snprintf(bad, bad_len, "%s: %s's format file: %s", name, tp, strerror(-ret));
		free(fmt);
		return -EINVAL;
	}
	ret = tracepoint_filter(ev, tp, spec, fmt, bad, bad_len);
	free(fmt);
	if (ret)
		return ret;
	snprintf(ev->fstr, sizeof(ev->fstr), "tracepoint %.64s (id %llu) if %.80s", tp,
		 (unsigned long long)id, ev->filter);
	return 1;
}

/* 0, or -EINVAL (-ENOMEM) with the name and why libpfm4 or tracefs refused it in bad. */
static int resolve_one(const char *name, struct mt_event *ev, char *bad, size_t bad_len)
{
	char qualified[MT_EVENT_NAME_MAX + 8];
	int perf = PFM_ERR_NOTFOUND, ret;

	if (strlen(name) >= MT_EVENT_NAME_MAX) {
		snprintf(bad, bad_len, "%.64s...: name too long", name);
		return -EINVAL;
	}
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	/*
	 * A tracepoint in tracefs first: tlb:tlb_flush is no libpfm4 name, but
	 * cycles:u is libpfm4's and looks like one (no events/cycles/u there).
	 */
	ret = resolve_tracepoint(name, ev, false, bad, bad_len);
	if (ret)
		return ret < 0 ? ret : 0;
	/*
	 * perf's own names (cycles, dTLB-load-misses, minor-faults) live in
	 * libpfm4's perf:: PMU, which an unqualified lookup may not reach first;
	 * anything else is a PMU event name (DTLB_LOAD_MISSES:WALK_COMPLETED).
	 */
	if (!strstr(name, "::")) {
		snprintf(qualified, sizeof(qualified), "perf::%s", name);
		perf = encode(qualified, ev);
		if (perf == PFM_SUCCESS)
			return 0;
	}
	ret = encode(name, ev);
	if (ret == PFM_SUCCESS)
		return 0;
	/* Not libpfm4's either: a tracepoint that is not here, or one tracefs cannot show. */
	if (mt_tracefs_is_name(name, strlen(name))) {
		ret = resolve_tracepoint(name, ev, true, bad, bad_len);
		return ret < 0 ? ret : 0;
	}
	/* A perf name with a bad modifier (minor-faults:x) says so, not "not found". */
	if (ret == PFM_ERR_NOTFOUND)
		ret = perf;
	/* libpfm4's reason: no such event, a missing unit mask, a bad modifier */
	snprintf(bad, bad_len, "%s: %s", name, pfm_strerror(ret));
	return -EINVAL;
}

int mt_events_resolve(const char *list, struct mt_event **out, size_t *n, char *bad,
		      size_t bad_len)
{
	struct mt_event *ev = NULL;
	size_t count = 0, cap = 0;
	char *copy, *tok, *save = NULL;
	int ret;

	ret = pfm_ready();
	if (ret) {
		snprintf(bad, bad_len, "libpfm4 found no PMU to encode events for");
		return ret;
	}
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (count == cap) {
			struct mt_event *grown;

			cap = cap ? 2 * cap : 8;
			grown = realloc(ev, cap * sizeof(*ev));
			if (!grown) {
				ret = -ENOMEM;
				goto fail;
			}
			ev = grown;
		}
		memset(&ev[count], 0, sizeof(ev[count]));
		for (size_t i = 0; i < count; i++) {
			if (!strcmp(ev[i].name, tok)) {
				snprintf(bad, bad_len, "%s: listed twice", tok);
				ret = -EINVAL;
				goto fail;
			}
		}
		ret = resolve_one(tok, &ev[count], bad, bad_len);
		if (ret)
			goto fail;
		count++;
	}
	if (!count) {
		snprintf(bad, bad_len, "no event named");
		ret = -EINVAL;
		goto fail;
	}
	free(copy);
	*out = ev;
	*n = count;
	return 0;
fail:
	free(copy);
	free(ev);
	return ret;
}

int mt_pmu_force(const char *pmu)
{
	/* libpfm4 reads LIBPFM_FORCE_PMU when it initialises: start it again. */
	pfm_terminate();
	if (setenv("LIBPFM_FORCE_PMU", pmu, 1))
		return -errno;
	return pfm_ready();
}

int mt_pmu_unforce(void)
{
	pfm_terminate();
	if (unsetenv("LIBPFM_FORCE_PMU"))
		return -errno;
	return pfm_ready();
}

int mt_pmu_core_name(char *buf, size_t len)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	pfm_pmu_info_t info;
	pfm_pmu_t p;

	buf[0] = '\0';
	if (pfm_ready())
		return -ENODEV;
	/*
	 * A forced PMU is the core one. (After pfm_terminate() and a forced
	 * re-initialisation, libpfm4 may still list the detected PMU present.)
	 */
	pfm_for_all_pmus(p) {
		if (!forced || !*forced)
			break;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS)
			continue;
		if (info.is_present && info.type == PFM_PMU_TYPE_CORE && !strcmp(info.name, forced)) {
			snprintf(buf, len, "%s", info.name);
			return 0;
		}
	}
	/* is_dfl marks only ix86arch/s390x: look for the present core PMU. */
	pfm_for_all_pmus(p) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS || !info.is_present)
			continue;
		if (info.type != PFM_PMU_TYPE_CORE)
			continue;
		snprintf(buf, len, "%s", info.name);
		return 0;
	}
	return -ENOENT;
}

int mt_pmu_present_list(char *buf, size_t len)
{
	return mt_pmu_present_cores(buf, len, false);
}

int mt_pmu_present_cores(char *buf, size_t len, bool core_only)
{
	pfm_pmu_info_t info;
	size_t off = 0;
	bool full = false;
	pfm_pmu_t p;
	int n = 0;

	buf[0] = '\0';
	if (pfm_ready())
		return -ENODEV;
	pfm_for_all_pmus(p) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS || !info.is_present)
			continue;
		if (core_only && info.type != PFM_PMU_TYPE_CORE)
			continue;
		/* A full buffer ends the list, not the count (hybrid detection uses it). */
		n++;
		if (full || off + strlen(info.name) + 2 > len) {
			full = true;
			continue;
		}
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " " : "", info.name);
	}
	return core_only ? n : 0;
}

static int is_hw(const struct mt_event *ev)
{
	return ev->attr.type == PERF_TYPE_HARDWARE || ev->attr.type == PERF_TYPE_HW_CACHE ||
	       ev->attr.type >= PERF_TYPE_RAW;
}

const char *mt_event_reason(const struct mt_event *ev, int hw_counters)
{
	if (ev->unavailable && ev->err == ev->unavailable && ev->why[0])
		return ev->why;
	if (ev->attr.type == PERF_TYPE_TRACEPOINT && (ev->err == -EACCES || ev->err == -EPERM))
		/* No user-only fallback: a tracepoint fires in the kernel alone. */
		return "not permitted by kernel.perf_event_paranoid (kernel-only event)";
	switch (-ev->err) {
	case 0:
		return "counting";
	case ENOENT:
		if (is_hw(ev) && hw_counters == 0)
			return "no PMU driver in this kernel";
		return "this kernel's PMU has no such event";
	case EOPNOTSUPP:
		return "not supported by this PMU";
	case EACCES:
	case EPERM:
		return "not permitted by kernel.perf_event_paranoid";
	case EINVAL:
		return "the kernel rejected the event's attributes";
	case EMFILE:
		return "too many open files (RLIMIT_NOFILE)";
	case ENODEV:
		return "no such PMU on this machine";
	default:
		return strerror(-ev->err);
	}
}

enum mt_role mt_event_role(const struct mt_event *ev)
{
	const struct perf_event_attr *a = &ev->attr;
	const __u64 dtlb_read = PERF_COUNT_HW_CACHE_DTLB | (PERF_COUNT_HW_CACHE_OP_READ << 8);

	if (ev->role > MT_ROLE_NONE && ev->role < MT_ROLE_MAX)
		return (enum mt_role)ev->role;
	if (a->type == PERF_TYPE_HARDWARE) {
		switch (a->config) {
		case PERF_COUNT_HW_CPU_CYCLES: return MT_ROLE_CYCLES;
		case PERF_COUNT_HW_INSTRUCTIONS: return MT_ROLE_INSTRUCTIONS;
		}
	} else if (a->type == PERF_TYPE_SOFTWARE) {
		switch (a->config) {
		case PERF_COUNT_SW_PAGE_FAULTS: return MT_ROLE_PAGE_FAULTS;
		case PERF_COUNT_SW_PAGE_FAULTS_MIN: return MT_ROLE_MINOR_FAULTS;
		case PERF_COUNT_SW_PAGE_FAULTS_MAJ: return MT_ROLE_MAJOR_FAULTS;
		}
	} else if (a->type == PERF_TYPE_HW_CACHE) {
		if (a->config == (dtlb_read | (PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16)))
			return MT_ROLE_DTLB_LOADS;
		if (a->config == (dtlb_read | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16)))
			return MT_ROLE_DTLB_MISSES;
	}
	return MT_ROLE_NONE;
}

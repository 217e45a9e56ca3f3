// SPDX-License-Identifier: MIT
/* The environment fingerprint (what makes two numbers comparable) and its check. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sys/env.h"
#include "sys/sys.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

const struct mt_env_kvm_feature mt_env_kvm_features[MT_ENV_KVM_FEATURES] = {
	{ "clocksource", 0 },		{ "nop_io_delay", 1 },
	{ "mmu_op", 2 },		{ "clocksource2", 3 },
	{ "async_pf", 4 },		{ "steal_time", 5 },
	{ "pv_eoi", 6 },		{ "pv_unhalt", 7 },
	{ "pv_tlb_flush", 9 },		{ "async_pf_vmexit", 10 },
	{ "pv_send_ipi", 11 },		{ "poll_control", 12 },
	{ "pv_sched_yield", 13 },	{ "async_pf_int", 14 },
	{ "msi_ext_dest_id", 15 },	{ "hc_map_gpa_range", 16 },
	{ "migration_control", 17 },	{ "clocksource_stable", 24 },
};

/*
 * A sysfs or proc file's text, under the sysroot, trailing newline cut and
 * anything unprintable made '?': these strings go into reports and onto
 * terminals. 0 (an empty file is ""), or -errno (a directory: -EISDIR).
 */
static int read_text(const char *path, char *buf, size_t len)
{
	char full[4096];
	ssize_t n;
	int fd;

	fd = open(mt_sys_path(full, sizeof(full), path), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		n = read(fd, buf, len - 1);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		int ret = -errno;

		close(fd);
		buf[0] = '\0';
		return ret;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] >= 0x7f)
			buf[i] = buf[i] == '\n' || buf[i] == '\t' ? ' ' : '?';
	return 0;
}

static long text_long(const char *path, long dfl)
{
	char line[64], *end;
	long v;

	if (read_text(path, line, sizeof(line)))
		return dfl;
	v = strtol(line, &end, 10);
	return end == line ? dfl : v;
}

/* "none [integrity] confidentiality" -> "integrity" */
static void bracketed(char *s)
{
	char *open = strchr(s, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close) {
		*close = '\0';
		memmove(s, open + 1, strlen(open + 1) + 1);
	}
}

static const struct {
	const char *sig;
	const char *vendor;
} hv_vendors[] = {
	{ "KVMKVMKVM", "KVM" },		{ "Microsoft Hv", "Hyper-V" },
	{ "VMwareVMware", "VMware" },	{ "XenVMMXenVMM", "Xen" },
	{ "TCGTCGTCGTCG", "QEMU TCG" },	{ "ACRNACRNACRN", "ACRN" },
	{ "bhyve bhyve ", "bhyve" },	{ " lrpepyh  vr", "Parallels" },
	{ "VBoxVBoxVBox", "VirtualBox" },
};

void mt_env_hv_decode(struct mt_env *e, const unsigned int sig[4], const unsigned int *kvm)
{
	char s[13];

	memcpy(s, &sig[1], 4);
	memcpy(s + 4, &sig[2], 4);
	memcpy(s + 8, &sig[3], 4);
	s[12] = '\0';
	/* The signature is the hypervisor's bytes: kept printable, KVM's NULs cut. */
	for (int i = 0; i < 12 && s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			s[i] = '?';
	e->hv_cpuid = 1;
	snprintf(e->hv_signature, sizeof(e->hv_signature), "%s", s);
	e->hv_vendor[0] = '\0';
	for (size_t i = 0; i < sizeof(hv_vendors) / sizeof(hv_vendors[0]); i++)
		if (!strcmp(e->hv_signature, hv_vendors[i].sig))
			snprintf(e->hv_vendor, sizeof(e->hv_vendor), "%s", hv_vendors[i].vendor);
	e->kvm_features_known = kvm != NULL;
	e->kvm_features = kvm ? *kvm : 0;
}

int mt_env_kvm_feature(const struct mt_env *e, const char *name)
{
	if (!e->kvm_features_known)
		return -1;
	for (size_t i = 0; i < MT_ENV_KVM_FEATURES; i++)
		if (!strcmp(mt_env_kvm_features[i].name, name))
			return !!(e->kvm_features & (1u << mt_env_kvm_features[i].bit));
	return -1;
}

static void read_hv(struct mt_env *e)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d, sig[4], feat;

	e->hv_cpuid = -1;
	/* A fixture tree describes another machine: this CPU's cpuid is not it. */
	if (mt_sys_fixture())
		return;
	e->hv_cpuid = 0;
	/* Without the hypervisor bit, leaf 0x40000000 is not a hypervisor's. */
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return;
	__cpuid(0x40000000, sig[0], sig[1], sig[2], sig[3]);
	mt_env_hv_decode(e, sig, NULL);
	/*
	 * KVM may sit above another interface (Hyper-V enlightenments at
	 * 0x40000000): Linux looks for its signature every 0x100 leaves.
	 */
	for (unsigned int base = 0x40000000; base < 0x40010000; base += 0x100) {
		unsigned int r[4];

		__cpuid(base, r[0], r[1], r[2], r[3]);
		if (memcmp(&r[1], "KVMK", 4) || memcmp(&r[2], "VMKV", 4) ||
		    memcmp(&r[3], "M\0\0\0", 4))
			continue;
		__cpuid(base + 1, feat, b, c, d);
		if (base == 0x40000000)
			mt_env_hv_decode(e, sig, &feat);
		else {
			e->kvm_features_known = 1;
			e->kvm_features = feat;
		}
		break;
	}
#else
	e->hv_cpuid = -1;
#endif
}

/* The governor of every policy: one name, "mixed", or "" when none. */
static void read_cpufreq(struct mt_env *e)
{
	char path[4096], gov[32];
	struct dirent *d;
	DIR *dir;
	long v;

	e->cpufreq = -1;
	e->boost = -1;
	dir = opendir(mt_sys_path(path, sizeof(path), "/sys/devices/system/cpu/cpufreq"));
	if (dir) {
		e->cpufreq = 0;
		while ((d = readdir(dir))) {
			if (strncmp(d->d_name, "policy", 6))
				continue;
			e->cpufreq = 1;
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpufreq/%.200s/%s",
				 d->d_name, "scaling_governor");
			if (read_text(path, gov, sizeof(gov)) || !gov[0])
				continue;
			if (!e->governor[0])
				snprintf(e->governor, sizeof(e->governor), "%s", gov);
			else if (strcmp(e->governor, gov))
				snprintf(e->governor, sizeof(e->governor), "mixed");
		}
		closedir(dir);
	} else if (errno == ENOENT) {
		e->cpufreq = 0;
	}
	v = text_long("/sys/devices/system/cpu/cpufreq/boost", -1);
	if (v >= 0) {
		e->boost = v != 0;
		snprintf(e->boost_source, sizeof(e->boost_source), "cpufreq/boost");
		return;
	}
	v = text_long("/sys/devices/system/cpu/intel_pstate/no_turbo", -1);
	if (v >= 0) {
		e->boost = v == 0;
		snprintf(e->boost_source, sizeof(e->boost_source), "intel_pstate/no_turbo");
	}
}

static bool translation_entry(const char *tok)
{
	static const char *const flags[] = { "nopti", "nopcid", "no5lvl", "nokaslr" };
	static const char *const keys[] = {
		"mitigations=", "pti=", "transparent_hugepage=", "hugepages=", "hugepagesz=",
		"default_hugepagesz=", "isolcpus=", "nohz_full=",
	};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (!strcmp(tok, flags[i]))
			return true;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strncmp(tok, keys[i], strlen(keys[i])))
			return true;
	return false;
}

static void read_cmdline(struct mt_env *e)
{
	char line[4096], *tok, *save;
	size_t off = 0;

	if (read_text("/proc/cmdline", line, sizeof(line)))
		return;
	e->cmdline_known = 1;
	for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		size_t n = strlen(tok);

		if (!strcmp(tok, "--"))	/* the rest is init's */
			break;
		if (!translation_entry(tok) || off + n + 2 > sizeof(e->cmdline))
			continue;
		off += (size_t)snprintf(e->cmdline + off, sizeof(e->cmdline) - off, "%s%s",
					off ? " " : "", tok);
	}
}

static int by_size(const void *a, const void *b)
{
	const struct mt_env_mthp *x = a, *y = b;

	return x->size_kb < y->size_kb ? -1 : x->size_kb > y->size_kb;
}

/* One setting of a size's directory, the bracketed word; "" when absent. */
static void mthp_setting(const char *dir, const char *name, char *buf, size_t len)
{
	char path[4096], line[96];

	snprintf(path, sizeof(path), "/sys/kernel/mm/transparent_hugepage/%.64s/%s", dir, name);
	buf[0] = '\0';
	if (read_text(path, line, sizeof(line)))
		return;
	bracketed(line);
	snprintf(buf, len, "%.11s", line);
}

/*
 * Every size of /sys/kernel/mm/transparent_hugepage/hugepages-*kB (6.8+):
 * the directory is the list, whatever files a size has.
 */
static void read_mthp(struct mt_env *e)
{
	char path[4096];
	struct dirent *d;
	unsigned int kb;
	DIR *dir;

	dir = opendir(mt_sys_path(path, sizeof(path), "/sys/kernel/mm/transparent_hugepage"));
	if (!dir)
		return;
	while ((d = readdir(dir)) && e->n_mthp < MT_ENV_MTHP_MAX) {
		struct mt_env_mthp *m = &e->mthp[e->n_mthp];

		if (sscanf(d->d_name, "hugepages-%ukB", &kb) != 1 || !kb)
			continue;
		m->size_kb = kb;
		mthp_setting(d->d_name, "enabled", m->enabled, sizeof(m->enabled));
		mthp_setting(d->d_name, "shmem_enabled", m->shmem_enabled,
			     sizeof(m->shmem_enabled));
		e->n_mthp++;
	}
	closedir(dir);
	qsort(e->mthp, e->n_mthp, sizeof(e->mthp[0]), by_size);
}

#define KHUGEPAGED "/sys/kernel/mm/transparent_hugepage/khugepaged/"

int mt_env_read(struct mt_env *e)
{
	char line[256], *end;
	double v;

	memset(e, 0, sizeof(*e));
	read_hv(e);
	read_cpufreq(e);
	e->smt_active = (int)text_long("/sys/devices/system/cpu/smt/active", -1);
	e->isolated_known = !read_text("/sys/devices/system/cpu/isolated", e->isolated,
				       sizeof(e->isolated));
	e->nohz_full_known = !read_text("/sys/devices/system/cpu/nohz_full", e->nohz_full,
					sizeof(e->nohz_full));
	/* The kernel writes " (null)" for no nohz_full CPUs. */
	if (e->nohz_full_known && !strcmp(e->nohz_full, "(null)"))
		e->nohz_full[0] = '\0';
	e->aslr = (int)text_long("/proc/sys/kernel/randomize_va_space", -1);
	read_cmdline(e);
	if (!read_text("/sys/kernel/security/lockdown", line, sizeof(line))) {
		bracketed(line);
		snprintf(e->lockdown, sizeof(e->lockdown), "%.23s", line);
	}
	e->loadavg = -1;
	if (!read_text("/proc/loadavg", line, sizeof(line))) {
		v = strtod(line, &end);
		if (end != line && v >= 0)
			e->loadavg = v;
	}
	e->online_cpus = -1;
	if (!read_text("/sys/devices/system/cpu/online", line, sizeof(line)))
		e->online_cpus = mt_sys_list_count(line);
	e->max_ptes_none = text_long(KHUGEPAGED "max_ptes_none", -1);
	e->max_ptes_swap = text_long(KHUGEPAGED "max_ptes_swap", -1);
	e->max_ptes_shared = text_long(KHUGEPAGED "max_ptes_shared", -1);
	e->alloc_sleep_ms = text_long(KHUGEPAGED "alloc_sleep_millisecs", -1);
	e->thp_use_zero_page =
		(int)text_long("/sys/kernel/mm/transparent_hugepage/use_zero_page", -1);
	read_mthp(e);
	e->run.steal_ms = -1;
	e->run.migrations = -1;
	return 0;
}

/* The steal field (8th) of /proc/stat's "cpu" line, in USER_HZ ticks; -1 unreadable. */
static long long read_steal(void)
{
	char buf[512];
	unsigned long long f[8];

	if (read_text("/proc/stat", buf, sizeof(buf)) || strncmp(buf, "cpu ", 4))
		return -1;
	if (sscanf(buf + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2],
		   &f[3], &f[4], &f[5], &f[6], &f[7]) != 8)
		return -1;
	return (long long)f[7];
}

/* se.nr_migrations of /proc/self/sched: this thread's moves between CPUs. */
static long read_migrations(void)
{
	char full[4096], line[256];
	long v = -1;
	FILE *f;

	f = fopen(mt_sys_path(full, sizeof(full), "/proc/self/sched"), "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *colon;

		if (strncmp(line, "se.nr_migrations", 16) || !(colon = strchr(line, ':')))
			continue;
		v = strtol(colon + 1, NULL, 10);
		break;
	}
	fclose(f);
	return v;
}

int mt_env_mark(struct mt_env_mark *m)
{
	struct rusage ru;

	m->steal_ticks = read_steal();
	m->migrations = read_migrations();
	m->nvcsw = m->nivcsw = -1;
	if (!getrusage(RUSAGE_SELF, &ru)) {
		m->nvcsw = ru.ru_nvcsw;
		m->nivcsw = ru.ru_nivcsw;
	}
	return 0;
}

double mt_env_steal_since(const struct mt_env_mark *m)
{
	long long now = read_steal();
	long hz = sysconf(_SC_CLK_TCK);

	if (m->steal_ticks < 0 || now < m->steal_ticks || hz <= 0)
		return -1;
	return (double)(now - m->steal_ticks) * 1000.0 / (double)hz;
}

void mt_env_run_add(struct mt_env_run *run, const struct mt_env_mark *m)
{
	struct mt_env_mark now;
	double steal = mt_env_steal_since(m);
	bool first = !run->measured;

	mt_env_mark(&now);
	/* A part that could not be read makes the whole run's figure absent. */
	if (first)
		run->steal_ms = steal;
	else if (run->steal_ms >= 0)
		run->steal_ms = steal < 0 ? -1 : run->steal_ms + steal;
	if (first)
		run->nvcsw = run->nivcsw = 0, run->migrations = 0;
	run->nvcsw = m->nvcsw < 0 || run->nvcsw < 0 ? -1 : run->nvcsw + now.nvcsw - m->nvcsw;
	run->nivcsw = m->nivcsw < 0 || run->nivcsw < 0 ? -1
			: run->nivcsw + now.nivcsw - m->nivcsw;
	run->migrations = m->migrations < 0 || now.migrations < 0 || run->migrations < 0
			  ? -1 : run->migrations + now.migrations - m->migrations;
	run->measured = true;
}

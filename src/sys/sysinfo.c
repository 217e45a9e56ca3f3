// SPDX-License-Identifier: MIT
/* What the machine is: read from /proc and /sys, never guessed. */
#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sys/emulation.h"
#include "sys/sys.h"
#include "sys/sysinfo.h"
#include "sys/tlbdesc.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* "always [madvise] never" -> "madvise" */
static void read_choice(const char *path, char *out, size_t len)
{
	char line[256], *open, *close;

	out[0] = '\0';
	if (mt_sys_read_line(path, line, sizeof(line)))
		return;
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		memmove(line, open + 1, strlen(open + 1) + 1);
	}
	snprintf(out, len, "%.31s", line);
}

static long read_long(const char *path, long dfl)
{
	char line[64], *end;
	long v;

	if (mt_sys_read_line(path, line, sizeof(line)))
		return dfl;
	v = strtol(line, &end, 10);
	return end == line ? dfl : v;
}

const char *mt_sysinfo_state_name(int state)
{
	switch (state) {
	case MT_SYSINFO_READ: return "read";
	case MT_SYSINFO_ABSENT: return "absent";
	case MT_SYSINFO_LOCKDOWN: return "unknown (lockdown)";
	default: return "unreadable";
	}
}

int mt_sysinfo_state_parse(const char *name)
{
	for (int st = MT_SYSINFO_READ; st < MT_SYSINFO_UNREADABLE; st++)
		if (name && !strcmp(name, mt_sysinfo_state_name(st)))
			return st;
	return MT_SYSINFO_UNREADABLE;
}

/* "none [integrity] confidentiality" -> "integrity"; "" when there is none. */
static void lockdown_mode(const char *line, char *out, size_t len)
{
	const char *open = line ? strchr(line, '[') : NULL;
	const char *close = open ? strchr(open, ']') : NULL;

	out[0] = '\0';
	if (open && close && close - open - 1 < (int)len)
		snprintf(out, len, "%.*s", (int)(close - open - 1), open + 1);
}

int mt_sysinfo_debugfs_state(int err, const char *lockdown)
{
	char mode[16];

	if (!err)
		return MT_SYSINFO_READ;
	if (err == -ENOENT || err == -ENOTDIR)
		return MT_SYSINFO_ABSENT;
	lockdown_mode(lockdown, mode, sizeof(mode));
	/* Lockdown refuses with EPERM; EACCES is a file's mode (not root). */
	if (err == -EPERM && *mode && strcmp(mode, "none"))
		return MT_SYSINFO_LOCKDOWN;
	return MT_SYSINFO_UNREADABLE;
}

/* A debugfs number: the value, or -1 with *state saying why there is none. */
static long read_debugfs(const char *path, const char *lockdown, int *state)
{
	char line[64], *end;
	long v;
	int ret;

	ret = mt_sys_read_line(path, line, sizeof(line));
	*state = mt_sysinfo_debugfs_state(ret, lockdown);
	if (ret)
		return -1;
	v = strtol(line, &end, 10);
	if (end == line || v < 0) {
		*state = MT_SYSINFO_UNREADABLE;
		return -1;
	}
	return v;
}

/* Key "name:   value" from a /proc file with such lines; 0 or -errno. */
static int read_keyed(const char *path, const char *key, char *out, size_t len)
{
	char full[4096], line[8192];	/* x86 flags lines run past 1000 */
	size_t klen = strlen(key);
	int ret = -ENOENT;
	FILE *f;

	f = fopen(mt_sys_path(full, sizeof(full), path), "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, key, klen) || (line[klen] != ':' && line[klen] != ' ' &&
						  line[klen] != '\t'))
			continue;
		v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(out, len, "%s", v);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

int64_t mt_sys_mem_available(void)
{
	char v[64];
	int ret;

	ret = read_keyed("/proc/meminfo", "MemAvailable", v, sizeof(v));
	if (ret)
		return ret;
	return (int64_t)strtoll(v, NULL, 10) * 1024;
}

/*
 * A cgroup file's number: 0, -ENOENT, -ERANGE for no limit ("max" in v2;
 * v1 says "no limit" with a page-rounded LONG_MAX, anything past 2^62).
 */
static int read_cg(const char *base, const char *dir, const char *name, int64_t *out)
{
	char rel[4096], line[64], *end;
	long long v;
	int ret;

	snprintf(rel, sizeof(rel), "%s%s/%s", base, dir, name);
	ret = mt_sys_read_line(rel, line, sizeof(line));
	if (ret)
		return ret;
	if (!strcmp(line, "max"))
		return -ERANGE;
	errno = 0;
	v = strtoll(line, &end, 10);
	if (end == line || *end || errno || v < 0)
		return -EINVAL;
	if (v >= 1ll << 62)
		return -ERANGE;
	*out = v;
	return 0;
}

/*
 * The tightest headroom from dir up to the root of one hierarchy (base:
 * /sys/fs/cgroup for v2, /sys/fs/cgroup/memory for v1): every ancestor's
 * limit holds too. knobs: the limits to read at each level (v2's
 * memory.max and memory.high: past high the kernel reclaims and throttles
 * the run to a crawl, which measures the throttle), against cur_name's
 * usage. Whether any level had a limit.
 */
static bool cg_walk(const char *base, char *dir, const char *const *knobs, size_t n_knobs,
		    const char *cur_name, struct mt_mem_limit *lim, bool limited)
{
	if (!strcmp(dir, "/"))
		dir[0] = '\0';
	for (;;) {
		char *slash;

		for (size_t k = 0; k < n_knobs; k++) {
			int64_t max, cur = 0, room;

			if (read_cg(base, dir, knobs[k], &max))
				continue;
			read_cg(base, dir, cur_name, &cur);
			room = max > cur ? max - cur : 0;
			if (!limited || room < lim->available) {
				lim->available = room;
				lim->max = max;
				lim->current = cur;
				snprintf(lim->knob, sizeof(lim->knob), "%s", knobs[k]);
				snprintf(lim->path, sizeof(lim->path), "%s%s", base,
					 dir[0] ? dir : "/");
			}
			limited = true;
		}
		if (!dir[0])
			break;
		slash = strrchr(dir, '/');
		*slash = '\0';
	}
	return limited;
}

/* Whether a v1 line's controller list ("4:cpu,memory:/x") names ctl. */
static bool v1_controller(const char *line, const char *ctl, const char **path)
{
	const char *c = strchr(line, ':'), *end;
	size_t len = strlen(ctl);

	if (!c)
		return false;
	end = strchr(++c, ':');
	if (!end || end[1] != '/')
		return false;
	for (const char *p = c; p < end;) {
		size_t n = strcspn(p, ",:");

		if (n == len && !strncmp(p, ctl, len)) {
			*path = end + 1;
			return true;
		}
		p += n + 1;
	}
	return false;
}

/*
 * This process's cgroup paths from /proc/self/cgroup: v2's ("0::/PATH")
 * and v1's for controller ctl ("N:ctl:/PATH", beside others on a hybrid).
 * An empty string where there is none, or one that climbs ("/..").
 */
static int cg_paths(const char *ctl, char *v2, char *v1, size_t len)
{
	char full[4096], line[4096];
	const char *p;
	FILE *f;

	v2[0] = v1[0] = '\0';
	f = fopen(mt_sys_path(full, sizeof(full), "/proc/self/cgroup"), "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "0::/", 4))
			snprintf(v2, len, "%s", line + 3);
		else if (v1_controller(line, ctl, &p))
			snprintf(v1, len, "%s", p);
	}
	fclose(f);
	if (strstr(v2, "/.."))
		v2[0] = '\0';
	if (strstr(v1, "/.."))
		v1[0] = '\0';
	return 0;
}

int mt_sys_mem_limit(struct mt_mem_limit *lim)
{
	static const char *const v2_knobs[] = { "memory.max", "memory.high" };
	static const char *const v1_knobs[] = { "memory.limit_in_bytes" };
	char v2[4096], v1[4096];
	bool limited = false;
	int ret;

	memset(lim, 0, sizeof(*lim));
	ret = cg_paths("memory", v2, v1, sizeof(v2));
	if (ret)
		return ret;
	if (v2[0])
		limited = cg_walk("/sys/fs/cgroup", v2, v2_knobs, 2, "memory.current", lim,
				  limited);
	if (v1[0])
		limited = cg_walk("/sys/fs/cgroup/memory", v1, v1_knobs, 1,
				  "memory.usage_in_bytes", lim, limited);
	return limited ? 0 : -ENOENT;
}

int mt_sys_hugetlb_limit(uint64_t size_kb, struct mt_mem_limit *lim)
{
	char v2[4096], v1[4096], size[32], max[64], cur[64], v1max[64], v1cur[64];
	const char *knob[1];
	bool limited = false;
	int ret;

	memset(lim, 0, sizeof(*lim));
	/* the kernel's names: "64KB", "2MB", "1GB" (hugetlb_cgroup's mem_fmt) */
	if (size_kb >= 1u << 20)
		snprintf(size, sizeof(size), "%" PRIu64 "GB", size_kb >> 20);
	else if (size_kb >= 1u << 10)
		snprintf(size, sizeof(size), "%" PRIu64 "MB", size_kb >> 10);
	else
		snprintf(size, sizeof(size), "%" PRIu64 "KB", size_kb);
	snprintf(max, sizeof(max), "hugetlb.%s.max", size);
	snprintf(cur, sizeof(cur), "hugetlb.%s.current", size);
	snprintf(v1max, sizeof(v1max), "hugetlb.%s.limit_in_bytes", size);
	snprintf(v1cur, sizeof(v1cur), "hugetlb.%s.usage_in_bytes", size);
	ret = cg_paths("hugetlb", v2, v1, sizeof(v2));
	if (ret)
		return ret;
	knob[0] = max;
	if (v2[0])
		limited = cg_walk("/sys/fs/cgroup", v2, knob, 1, cur, lim, limited);
	knob[0] = v1max;
	if (v1[0])
		limited = cg_walk("/sys/fs/cgroup/hugetlb", v1, knob, 1, v1cur, lim, limited);
	return limited ? 0 : -ENOENT;
}

/*
 * The memory a run may use: the tighter of MemAvailable and the cgroup's
 * headroom.
 */
int64_t mt_sys_mem_headroom(struct mt_mem_limit *lim, bool *by_cgroup)
{
	int64_t avail = mt_sys_mem_available();
	struct mt_mem_limit cg;

	*by_cgroup = false;
	if (!mt_sys_mem_limit(&cg) && (avail < 0 || cg.available < avail)) {
		*by_cgroup = true;
		avail = cg.available;
	}
	if (lim)
		*lim = cg;
	return avail;
}

/*
 * A CPU PMU driver registers a core PMU: "cpu" (x86), "cpu_core"/"cpu_atom"
 * (hybrid), "armv8_*"/"armv7_*", "cpum_cf" (s390); on POWER the core PMU
 * is "cpu" too. Software-only kernels list software, tracepoint, ...
 */
static int has_cpu_pmu(void)
{
	static const char *const core[] = { "cpu", "cpu_core", "cpu_atom", "cpum_cf" };
	char path[4096];
	struct dirent *d;
	int found = 0;
	DIR *dir;

	dir = opendir(mt_sys_path(path, sizeof(path), "/sys/bus/event_source/devices"));
	if (!dir)
		return -1;
	while (!found && (d = readdir(dir))) {
		for (size_t i = 0; i < sizeof(core) / sizeof(core[0]); i++)
			if (!strcmp(d->d_name, core[i]))
				found = 1;
		if (!strncmp(d->d_name, "armv8", 5) || !strncmp(d->d_name, "armv7", 5))
			found = 1;
	}
	closedir(dir);
	return found;
}

static void read_hugepools(struct mt_sysinfo *si)
{
	char path[4096];
	struct dirent *d;
	DIR *dir;

	dir = opendir(mt_sys_path(path, sizeof(path), "/sys/kernel/mm/hugepages"));
	if (!dir)
		return;
	while ((d = readdir(dir)) && si->n_hugepools < MT_HUGEPAGE_SIZES) {
		struct mt_hugepool *hp = &si->hugepools[si->n_hugepools];
		uint64_t kb;

		if (sscanf(d->d_name, "hugepages-%" SCNu64 "kB", &kb) != 1)
			continue;
		hp->size_kb = kb;
		snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/%s/nr_hugepages", d->d_name);
		hp->total = read_long(path, -1);
		snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/%s/free_hugepages", d->d_name);
		hp->free = read_long(path, -1);
		si->n_hugepools++;
	}
	closedir(dir);
}

static int has_flag(const char *flags, const char *flag)
{
	size_t len = strlen(flag);

	for (const char *p = flags; (p = strstr(p, flag)); p += len)
		if ((p == flags || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return 1;
	return 0;
}

static void add_tlb(struct mt_sysinfo *si, unsigned int level, const char *type,
		    const char *pages, unsigned int entries, unsigned int ways)
{
	struct mt_tlb *t;

	if (!entries || si->n_tlbs >= MT_TLB_MAX)
		return;
	t = &si->tlbs[si->n_tlbs++];
	t->level = level;
	snprintf(t->type, sizeof(t->type), "%s", type);
	snprintf(t->pages, sizeof(t->pages), "%s", pages);
	t->entries = entries;
	t->ways = ways;
}

/* AMD's L2/L3 associativity code (CPUID Fn8000_0006) to ways; 0 = fully. */
static unsigned int amd_l2_ways(unsigned int code, int *valid)
{
	static const unsigned int ways[16] = { 0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96,
					       128, 0 };

	*valid = code && code != 7 && code != 9;
	return ways[code & 0xf];
}

/* One L2 (or 1G) register: dTLB in the top half, iTLB in the bottom. */
static void amd_l2_reg(struct mt_sysinfo *si, unsigned int level, unsigned int reg,
		       const char *pages)
{
	int valid;
	unsigned int w;

	w = amd_l2_ways(reg >> 28, &valid);
	if (valid)
		add_tlb(si, level, "data", pages, (reg >> 16) & 0xfff, w);
	w = amd_l2_ways((reg >> 12) & 0xf, &valid);
	if (valid)
		add_tlb(si, level, "instruction", pages, reg & 0xfff, w);
}

void mt_sysinfo_tlb_amd(struct mt_sysinfo *si, const unsigned int l1[4],
			const unsigned int l2[4], const unsigned int gb[4])
{
	/* Fn8000_0005: EAX 2M/4M, EBX 4K; assoc 0xff = fully associative. */
	if (l1) {
		add_tlb(si, 1, "data", "4K", (l1[1] >> 16) & 0xff,
			(l1[1] >> 24) == 0xff ? 0 : l1[1] >> 24);
		add_tlb(si, 1, "instruction", "4K", l1[1] & 0xff,
			((l1[1] >> 8) & 0xff) == 0xff ? 0 : (l1[1] >> 8) & 0xff);
		add_tlb(si, 1, "data", "2M/4M", (l1[0] >> 16) & 0xff,
			(l1[0] >> 24) == 0xff ? 0 : l1[0] >> 24);
		add_tlb(si, 1, "instruction", "2M/4M", l1[0] & 0xff,
			((l1[0] >> 8) & 0xff) == 0xff ? 0 : (l1[0] >> 8) & 0xff);
	}
	/* Fn8000_0006: EAX 2M/4M, EBX 4K. Fn8000_0019: EAX L1 1G, EBX L2 1G. */
	if (l2) {
		amd_l2_reg(si, 2, l2[1], "4K");
		amd_l2_reg(si, 2, l2[0], "2M/4M");
	}
	if (gb) {
		amd_l2_reg(si, 1, gb[0], "1G");
		amd_l2_reg(si, 2, gb[1], "1G");
	}
}

int mt_sysinfo_tlb_intel(struct mt_sysinfo *si, const unsigned int r[4])
{
	static const char *const types[] = { NULL, "data", "instruction", "unified", "load",
					     "store" };
	unsigned int type = r[3] & 0x1f, level = (r[3] >> 5) & 0x7;
	char pages[24] = "";
	size_t off = 0;

	if (!type || type >= sizeof(types) / sizeof(types[0]))
		return -ENOENT;
	/* EBX bits 0-3: 4K, 2M, 4M, 1G pages; ways in 31:16; ECX: sets. */
	for (int b = 0; b < 4; b++)
		if (r[1] & (1u << b))
			off += (size_t)snprintf(pages + off, sizeof(pages) - off, "%s%s",
						off ? "/" : "", (const char *[]){ "4K", "2M", "4M",
										 "1G" }[b]);
	add_tlb(si, level, types[type], pages, (r[1] >> 16) * r[2],
		(r[3] & (1u << 8)) ? 0 : r[1] >> 16);
	return 0;
}

bool mt_sysinfo_cache_type_known(const char *t)
{
	return t && (!strcmp(t, "data") || !strcmp(t, "instruction") || !strcmp(t, "unified"));
}

void mt_sysinfo_cache_name(const struct mt_cache *c, char *buf, size_t len)
{
	snprintf(buf, len, "L%u%s", c->level, !strcmp(c->type, "data") ? "d" :
		 !strcmp(c->type, "instruction") ? "i" : "");
}

/*
 * CPU 0's caches from sysfs (also under MEMTLB_SYSROOT): level, type, size
 * ("48K", "32768K") and ways. A cache with any of the first three missing
 * or odd is left out; the rest are kept in the kernel's order.
 */
static void read_caches(struct mt_sysinfo *si)
{
	for (unsigned int i = 0; i < 16 && si->n_caches < MT_CACHE_MAX; i++) {
		struct mt_cache *c = &si->caches[si->n_caches];
		char path[96], type[32], size[32], *end;
		unsigned long long v;
		long level, ways;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%u/level", i);
		level = read_long(path, -1);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%u/type", i);
		if (level < 1 || level > 4 || mt_sys_read_line(path, type, sizeof(type)))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%u/size", i);
		if (mt_sys_read_line(path, size, sizeof(size)))
			continue;
		v = strtoull(size, &end, 10);
		if (end == size || !v || v > (1ull << 30) ||
		    (*end && strcmp(end, "K") && strcmp(end, "M")))
			continue;
		/* sysfs says "Data", "Instruction", "Unified" */
		type[0] = (char)tolower((unsigned char)type[0]);
		if (!mt_sysinfo_cache_type_known(type))
			continue;
		snprintf(c->type, sizeof(c->type), "%.11s", type);	/* known: at most 11 */
		c->level = (unsigned int)level;
		c->size = v << (*end == 'M' ? 20 : *end == 'K' ? 10 : 0);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%u/ways_of_associativity", i);
		ways = read_long(path, 0);
		c->ways = ways > 0 && ways < 1024 ? (unsigned int)ways : 0;
		si->n_caches++;
	}
}

static void read_tlbs(struct mt_sysinfo *si)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d, l1[4], l2[4], gb[4], max_ext, max;

	/* A fixture tree describes another machine: this CPU's cpuid is not it. */
	if (mt_sys_fixture())
		return;
	max = __get_cpuid_max(0, NULL);
	max_ext = __get_cpuid_max(0x80000000, NULL);
	if (!strcmp(si->cpu_vendor, "AuthenticAMD") || !strcmp(si->cpu_vendor, "HygonGenuine")) {
		if (max_ext < 0x80000006)
			return;
		__cpuid(0x80000005, l1[0], l1[1], l1[2], l1[3]);
		__cpuid(0x80000006, l2[0], l2[1], l2[2], l2[3]);
		if (max_ext >= 0x80000019)
			__cpuid(0x80000019, gb[0], gb[1], gb[2], gb[3]);
		mt_sysinfo_tlb_amd(si, l1, l2, max_ext >= 0x80000019 ? gb : NULL);
		snprintf(si->tlb_source, sizeof(si->tlb_source), "cpuid 0x80000005/6/19");
	} else if (!strcmp(si->cpu_vendor, "GenuineIntel") && max >= 0x18) {
		unsigned int n, r[4];

		__cpuid_count(0x18, 0, a, b, c, d);
		n = a;
		for (unsigned int sub = 0; sub <= n && sub < 64; sub++) {
			__cpuid_count(0x18, sub, r[0], r[1], r[2], r[3]);
			mt_sysinfo_tlb_intel(si, r);
		}
		if (si->n_tlbs)
			snprintf(si->tlb_source, sizeof(si->tlb_source), "cpuid 0x18");
	}
	/* Older Intel CPUs describe their TLBs by leaf 2's descriptors only. */
	if (!si->n_tlbs && !strcmp(si->cpu_vendor, "GenuineIntel") && max >= 2) {
		unsigned int r[4];

		__cpuid(2, r[0], r[1], r[2], r[3]);
		if (mt_tlbdesc_decode(si, r) > 0)
			snprintf(si->tlb_source, sizeof(si->tlb_source), "cpuid 0x2");
	}
	(void)a; (void)b; (void)c; (void)d;
#else
	(void)si;
#endif
}

int mt_sysinfo_read(struct mt_sysinfo *si)
{
	char line[4096];

	struct utsname u;

	memset(si, 0, sizeof(*si));
	if (mt_sys_read_line("/proc/sys/kernel/osrelease", si->kernel, sizeof(si->kernel)) &&
	    !uname(&u))
		snprintf(si->kernel, sizeof(si->kernel), "%s", u.release);
	if (mt_sys_read_line("/proc/sys/kernel/version", si->kernel_version,
			     sizeof(si->kernel_version)) && !uname(&u))
		snprintf(si->kernel_version, sizeof(si->kernel_version), "%s", u.version);
	if (!uname(&u)) {
		snprintf(si->machine, sizeof(si->machine), "%s", u.machine);
		snprintf(si->host, sizeof(si->host), "%s", u.nodename);
	}
	if (read_keyed("/proc/cpuinfo", "model name", si->cpu, sizeof(si->cpu)))
		read_keyed("/proc/cpuinfo", "cpu", si->cpu, sizeof(si->cpu));
	si->page_size = sysconf(_SC_PAGESIZE);
	read_choice("/sys/kernel/mm/transparent_hugepage/enabled", si->thp_enabled,
		    sizeof(si->thp_enabled));
	read_choice("/sys/kernel/mm/transparent_hugepage/defrag", si->thp_defrag,
		    sizeof(si->thp_defrag));
	read_choice("/sys/kernel/mm/transparent_hugepage/shmem_enabled", si->thp_shmem_enabled,
		    sizeof(si->thp_shmem_enabled));
	si->perf_event_paranoid = (int)read_long("/proc/sys/kernel/perf_event_paranoid", -99);
	si->hw_counters = has_cpu_pmu();
	read_hugepools(si);
	read_keyed("/proc/cpuinfo", "vendor_id", si->cpu_vendor, sizeof(si->cpu_vendor));
	si->hypervisor = -1;
	if (!read_keyed("/proc/cpuinfo", "flags", line, sizeof(line)))
		si->hypervisor = has_flag(line, "hypervisor");
	read_choice("/sys/kernel/mm/transparent_hugepage/khugepaged/defrag",
		    si->thp_khugepaged_defrag, sizeof(si->thp_khugepaged_defrag));
	si->khugepaged_pages_to_scan =
		read_long("/sys/kernel/mm/transparent_hugepage/khugepaged/pages_to_scan", -1);
	si->khugepaged_scan_sleep_ms =
		read_long("/sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs", -1);
	if (mt_sys_read_line("/sys/kernel/security/lockdown", line, sizeof(line)))
		line[0] = '\0';
	lockdown_mode(line, si->lockdown, sizeof(si->lockdown));
	si->fault_around_bytes = read_debugfs("/sys/kernel/debug/fault_around_bytes",
					      *line ? line : NULL, &si->fault_around_state);
	si->tlb_flush_ceiling = read_debugfs("/sys/kernel/debug/x86/tlb_single_page_flush_ceiling",
					     *line ? line : NULL, &si->tlb_flush_ceiling_state);
	si->percpu_pagelist_high_fraction =
		read_long("/proc/sys/vm/percpu_pagelist_high_fraction", -1);
	si->numa_nodes = -1;
	if (!mt_sys_read_line("/sys/devices/system/node/online", line, sizeof(line)))
		si->numa_nodes = mt_sys_list_count(line);
	read_tlbs(si);
	read_caches(si);
	mt_env_read(&si->env);
	/* KVM's paravirtual flush; no hypervisor leaf read is bare metal or another: no. */
	si->pv_tlb_flush = mt_env_kvm_feature(&si->env, "pv_tlb_flush");
	if (si->pv_tlb_flush < 0 && si->env.hv_cpuid >= 0)
		si->pv_tlb_flush = 0;
	mt_emulation_detect(&si->emulation);
	return 0;
}

static void warn(struct mt_env_warning *w, unsigned int max, unsigned int *n, const char *id,
		 const char *fix, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void warn(struct mt_env_warning *w, unsigned int max, unsigned int *n, const char *id,
		 const char *fix, const char *fmt, ...)
{
	va_list ap;

	if (*n < max) {
		snprintf(w[*n].id, sizeof(w[*n].id), "%s", id);
		snprintf(w[*n].fix, sizeof(w[*n].fix), "%s", fix ? fix : "");
		va_start(ap, fmt);
		vsnprintf(w[*n].text, sizeof(w[*n].text), fmt, ap);
		va_end(ap);
	}
	(*n)++;
}

unsigned int mt_sysinfo_check(const struct mt_sysinfo *si, const struct mt_env_check *c,
			      struct mt_env_warning *w, unsigned int max)
{
	const struct mt_env *e = &si->env;
	unsigned int n = 0;

	/* Unknown is not a warning: only what was read can be reported. */
	if (e->governor[0] && strcmp(e->governor, "performance"))
		warn(w, max, &n, "governor", "cpupower frequency-set -g performance",
		     "cpufreq governor %s, not performance", e->governor);
	if (e->boost == 1)
		warn(w, max, &n, "boost",
		     !strcmp(e->boost_source, "cpufreq/boost")
		     ? "echo 0 > /sys/devices/system/cpu/cpufreq/boost"
		     : "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo",
		     "turbo/boost on (%s)", e->boost_source);
	if (e->aslr > 0)
		warn(w, max, &n, "aslr", "echo 0 > /proc/sys/kernel/randomize_va_space",
		     "ASLR on (kernel.randomize_va_space=%d)", e->aslr);
	if (e->smt_active == 1)
		warn(w, max, &n, "smt", "echo off > /sys/devices/system/cpu/smt/control",
		     "SMT on: a sibling thread shares the TLBs");
	if (e->isolated_known && !e->isolated[0])
		warn(w, max, &n, "isolcpus", "boot with isolcpus=LIST nohz_full=LIST",
		     "no isolated CPUs: other tasks share the measuring CPU");
	if (c->steal_ms > 0)
		warn(w, max, &n, "steal", NULL, "steal time rose %.0f ms in a %.1f s sample",
		     c->steal_ms, c->sample_s);
	if (e->loadavg >= 0 && e->online_cpus > 0 && e->loadavg > 0.5 * e->online_cpus)
		warn(w, max, &n, "load", NULL, "load average %.2f on %d CPUs, above 0.5 per CPU",
		     e->loadavg, e->online_cpus);
	if (c->thp_matters && !strcmp(si->thp_enabled, "always"))
		warn(w, max, &n, "thp",
		     "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled",
		     "THP enabled=always: base-page runs may get huge pages");
	/* A smaller size set to always folds base pages too (mTHP, 6.8+). */
	for (unsigned int i = 0; c->thp_matters && i < e->n_mthp; i++) {
		char fix[96];

		if (strcmp(e->mthp[i].enabled, "always"))
			continue;
		snprintf(fix, sizeof(fix), "echo never > %s/hugepages-%ukB/enabled",
			 "/sys/kernel/mm/transparent_hugepage", e->mthp[i].size_kb);
		warn(w, max, &n, "mthp", fix, "mTHP %u kB enabled=always: base-page runs may get "
		     "%u kB folios", e->mthp[i].size_kb, e->mthp[i].size_kb);
	}
	return n;
}

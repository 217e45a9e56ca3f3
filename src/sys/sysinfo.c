// SPDX-License-Identifier: MIT
/* What the machine is: read from /proc and /sys, never guessed. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <memtlb/sysinfo.h>

const char *mt_sys_path(char *buf, size_t len, const char *path)
{
	const char *root = getenv("MEMTLB_SYSROOT");

	snprintf(buf, len, "%s%s", root && *root ? root : "", path);
	return buf;
}

int mt_sys_read_line(const char *path, char *buf, size_t len)
{
	char full[4096];
	FILE *f;

	f = fopen(mt_sys_path(full, sizeof(full), path), "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		buf[0] = '\0';
		return -ENODATA;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

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

/* Key "name:   value" from a /proc file with such lines; 0 or -errno. */
static int read_keyed(const char *path, const char *key, char *out, size_t len)
{
	char full[4096], line[512];
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

int mt_sysinfo_read(struct mt_sysinfo *si)
{
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
	return 0;
}

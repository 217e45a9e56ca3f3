// SPDX-License-Identifier: MIT
/* Checks of a workload config before anything runs. */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "model/size.h"
#include "sys/cleanup.h"
#include "sys/hugetlb.h"
#include "sys/mthp.h"
#include "sys/sysinfo.h"
#include "workload/check.h"
#include "workload/region.h"

static int check_sizes(const struct mt_config *cfg, struct mt_msg *msg)
{
	char a[32], b[32];
	uint64_t total;

	if (cfg->block < sizeof(uint64_t))
		return mt_msg_set(msg, -EINVAL, NULL, "--block: %llu: a block must hold a 64-bit word "
			    "(8 bytes or more)", (unsigned long long)cfg->block);
	if (cfg->block > cfg->region) {
		mt_size_format_short(cfg->block, a, sizeof(a));
		mt_size_format_short(cfg->region, b, sizeof(b));
		return mt_msg_set(msg, -EINVAL, NULL, "--block: %s is larger than the region (%s)", a, b);
	}
	/* Every later size (file length, pool pages, the memory guard) is a multiple. */
	if (__builtin_mul_overflow(cfg->region, mt_config_regions(cfg), &total) ||
	    total > INT64_MAX)
		return mt_msg_set(msg, -EINVAL, NULL, "--region: %llu bytes x %llu regions: too large",
			    (unsigned long long)cfg->region,
			    (unsigned long long)mt_config_regions(cfg));
	return 0;
}

/*
 * --cpu N: a CPU this process may run on (its affinity, which cpusets and
 * taskset narrow, holds only online CPUs), so pinning cannot fail mid-run.
 */
static int check_cpu(const struct mt_config *cfg, struct mt_msg *msg)
{
	cpu_set_t set;
	char list[128];
	size_t n = 0;

	if (cfg->cpu < 0 || sched_getaffinity(0, sizeof(set), &set))
		return 0;
	if (CPU_ISSET(cfg->cpu, &set))
		return 0;
	list[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && n < sizeof(list) - 16; c++)
		if (CPU_ISSET(c, &set))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%d", n ? "," : "", c);
	return mt_msg_set(msg, -EINVAL, "memtlb's CPUs are those of its affinity (taskset -p)",
			  "--cpu %d: not a CPU memtlb may run on (%s)", cfg->cpu, list);
}

bool mt_workload_mthp_shmem(const struct mt_config *cfg)
{
	return cfg->backing != MT_BACKING_ANON;
}

/*
 * --pages mthp:SIZE: a size the kernel offers for the backing, that
 * divides the region, and controls memtlb can set for the run.
 */
static int check_mthp(const struct mt_config *cfg, struct mt_msg *msg)
{
	bool shmem = mt_workload_mthp_shmem(cfg);
	char a[32], b[32], list[256];

	if (cfg->pages != MT_PAGES_MTHP)
		return 0;
	/* a tmpfs mount's huge= and a file system's own folios are not these controls */
	if (cfg->backing == MT_BACKING_SHM || cfg->backing == MT_BACKING_FILE)
		return mt_msg_set(msg, -EINVAL, "mTHP sizes back anon, shared or memfd mappings",
				  "--pages mthp: not with --backing %s",
				  mt_backing_name(cfg->backing));
	mt_size_format_short(cfg->huge_size, b, sizeof(b));
	if (!mt_mthp_offered(shmem, cfg->huge_size)) {
		mt_mthp_list(shmem, list, sizeof(list));
		return mt_msg_set(msg, -EINVAL, list[0] ? NULL : "mTHP needs kernel 6.8 or later "
				  "(shmem's: 6.11)", "--pages mthp:%s: not a size this kernel offers "
				  "for %s memory%s%s", b, shmem ? "shmem" : "anonymous",
				  list[0] ? ": " : "", list);
	}
	if (cfg->region % cfg->huge_size) {
		mt_size_format_short(cfg->region, a, sizeof(a));
		return mt_msg_set(msg, -EINVAL, NULL, "--region: %s is not a multiple of the mTHP "
				  "size (%s)", a, b);
	}
	if (mt_mthp_check(shmem, msg)) {
		char why[sizeof(msg->text)], hint[sizeof(msg->hint)];

		snprintf(why, sizeof(why), "%s", msg->text);
		snprintf(hint, sizeof(hint), "%s", msg->hint);
		return mt_msg_set(msg, -EACCES, hint, "--pages mthp:%s: %s", b, why);
	}
	return 0;
}

static int check_options(const struct mt_config *cfg, struct mt_msg *msg)
{
	char a[32], b[32];

	if (cfg->pages == MT_PAGES_HUGETLB &&
	    (cfg->backing == MT_BACKING_SHM || cfg->backing == MT_BACKING_FILE))
		return mt_msg_set(msg, -EINVAL, "hugetlb pages back anon, shared or memfd mappings",
			    "--pages hugetlb: not with --backing %s", mt_backing_name(cfg->backing));
	if (cfg->pages == MT_PAGES_HUGETLB && cfg->region % cfg->huge_size) {
		mt_size_format_short(cfg->region, a, sizeof(a));
		mt_size_format_short(cfg->huge_size, b, sizeof(b));
		return mt_msg_set(msg, -EINVAL, NULL, "--region: %s is not a multiple of the huge page size (%s)",
			    a, b);
	}
	if (cfg->reserve && cfg->pages != MT_PAGES_HUGETLB)
		return mt_msg_set(msg, -EINVAL, NULL, "--reserve: only with --pages hugetlb");
	if (cfg->file_cold && cfg->backing != MT_BACKING_FILE)
		return mt_msg_set(msg, -EINVAL, NULL, "--file-cache: only with --backing file");
	if (cfg->access == MT_ACCESS_STRIDE &&
	    (cfg->stride < cfg->block || cfg->stride > cfg->region || cfg->stride % cfg->block)) {
		mt_size_format_short(cfg->stride, a, sizeof(a));
		return mt_msg_set(msg, -EINVAL, NULL, "--access stride:%s: the stride must be a multiple of the "
			    "block and at most the region", a);
	}
	if (cfg->tasks && cfg->task_mode == MT_TASK_PROCESS &&
	    cfg->task_region == MT_TASK_REGION_SHARED && cfg->backing == MT_BACKING_ANON)
		return mt_msg_set(msg, -EINVAL, "--backing shared, shm, memfd or file; or --task-region private",
			    "--task-region shared: processes cannot share a private (anon) mapping");
	if (cfg->tasks && cfg->task_region == MT_TASK_REGION_SHARED) {
		uint64_t units = cfg->region /
				 (cfg->access == MT_ACCESS_STRIDE ? cfg->stride : cfg->block);

		if (units < cfg->tasks)
			return mt_msg_set(msg, -EINVAL, NULL, "--tasks: %lu tasks cannot share %llu blocks",
				    cfg->tasks, (unsigned long long)units);
	}
	return 0;
}

/*
 * What the run takes beyond what is already set aside: the regions (not
 * hugetlb's, which come from the pool) and the random order's offsets, one
 * 64-bit word per block.
 */
static uint64_t memory_use(const struct mt_config *cfg, uint64_t *order)
{
	*order = cfg->access == MT_ACCESS_RANDOM ? cfg->region / cfg->block * sizeof(uint64_t) : 0;
	return (cfg->pages == MT_PAGES_HUGETLB ? 0 : cfg->region * mt_config_regions(cfg)) +
	       *order;
}

/* --reserve: the bytes of huge pages the pool will be grown by. */
static uint64_t pool_growth(const struct mt_config *cfg)
{
	struct mt_hugepool_state st;
	long need;

	if (!cfg->reserve || cfg->pages != MT_PAGES_HUGETLB || !cfg->huge_size ||
	    mt_hugetlb_pool_read(cfg->huge_size >> 10, &st))
		return 0;
	need = (long)(cfg->region / cfg->huge_size * mt_config_regions(cfg));
	return need > st.free ? (uint64_t)(need - st.free) * cfg->huge_size : 0;
}

/* Past what the cgroup leaves: what, want bytes (and extra), lim's level. */
static int cgroup_msg(struct mt_msg *msg, const char *what, const char *want,
		      const char *extra, const struct mt_mem_limit *lim)
{
	char have[32], max[32], cur[32];

	mt_size_format((uint64_t)lim->available, have, sizeof(have));
	mt_size_format((uint64_t)lim->max, max, sizeof(max));
	mt_size_format((uint64_t)lim->current, cur, sizeof(cur));
	return mt_msg_set(msg, -EINVAL, "a smaller region, or --force to run anyway",
			  "%s: %s%s is more than the cgroup leaves (%s: %.24s %s, %s in use): "
			  "%.80s", what, want, extra, have, lim->knob, max, cur, lim->path);
}

static int check_memory(const struct mt_config *cfg, struct mt_msg *msg)
{
	const char *hint = "a smaller region, or --force to run anyway";
	int64_t avail = mt_sys_mem_available();
	uint64_t order, use = memory_use(cfg, &order), grow = pool_growth(cfg);
	char want[32], have[32], extra[64] = "";
	struct mt_mem_limit cg;

	if (cfg->force)
		return 0;
	if (order) {
		mt_size_format(order, want, sizeof(want));
		snprintf(extra, sizeof(extra), " with the random order (%s)", want);
	}
	/* Growing the pool takes the machine's memory: refused before it is written. */
	if (grow && avail >= 0 && grow + use > (uint64_t)avail) {
		mt_size_format(grow, want, sizeof(want));
		mt_size_format((uint64_t)avail, have, sizeof(have));
		return mt_msg_set(msg, -EINVAL, hint, "--reserve: %s of new huge pages%s is more than "
			    "MemAvailable (%s)", want, extra, have);
	}
	mt_size_format(use, want, sizeof(want));
	if (use && avail >= 0 && use > (uint64_t)avail) {
		mt_size_format((uint64_t)avail, have, sizeof(have));
		return mt_msg_set(msg, -EINVAL, hint, "--region: %s%s is more than MemAvailable (%s)",
			    cfg->pages == MT_PAGES_HUGETLB ? "the random order" : want,
			    cfg->pages == MT_PAGES_HUGETLB ? "" : extra, have);
	}
	/*
	 * A cgroup's memory.max ends the run with the OOM killer, its backing
	 * file left behind; past memory.high it is throttled to a crawl. Huge
	 * pages are the hugetlb controller's, not in it.
	 */
	if (use && !mt_sys_mem_limit(&cg) && use > (uint64_t)cg.available)
		return cgroup_msg(msg, "--region", want, extra, &cg);
	/* The hugetlb controller's limit: a fault past it is SIGBUS mid-touch. */
	if (cfg->pages == MT_PAGES_HUGETLB && cfg->huge_size &&
	    !mt_sys_hugetlb_limit(cfg->huge_size >> 10, &cg)) {
		use = cfg->region * mt_config_regions(cfg);
		mt_size_format(use, want, sizeof(want));
		if (use > (uint64_t)cg.available)
			return cgroup_msg(msg, "--pages hugetlb", want, " of huge pages", &cg);
	}
	return 0;
}

int mt_workload_check_together(const struct mt_config *cfgs, size_t n, struct mt_msg *msg)
{
	uint64_t files = 0, orders = 0, most = 0, held;
	bool file = n && cfgs[0].backing == MT_BACKING_FILE, by_cgroup;
	char want[32], have[32];
	struct mt_mem_limit cg;
	int64_t avail;
	int ret;

	msg->text[0] = msg->hint[0] = '\0';
	if (n < 2 || cfgs[0].force)
		return 0;
	/*
	 * Each point's workload is made when its run is and lives to the
	 * sweep's end: its backing file and its random order's offsets. Its
	 * region is mapped only while it runs, one at a time.
	 */
	for (size_t p = 0; p < n; p++) {
		uint64_t order, use = memory_use(&cfgs[p], &order);
		uint64_t bytes = file ? cfgs[p].region * mt_config_regions(&cfgs[p]) : 0;

		files += bytes;
		orders += order;
		if (use - order > most)
			most = use - order;
	}
	if (file) {
		ret = mt_region_space_bytes(&cfgs[0], files, msg);
		if (ret) {
			snprintf(msg->hint, sizeof(msg->hint), "--order sequential (one file "
				 "at a time), or --backing file:DIR with room");
			return ret;
		}
	}
	/* On tmpfs a file's pages are memory that nothing reclaims but swap. */
	held = orders + (file && mt_region_in_ram(&cfgs[0]) ? files : most);
	avail = mt_sys_mem_headroom(&cg, &by_cgroup);
	if (avail < 0 || held <= (uint64_t)avail)
		return 0;
	mt_size_format(held, want, sizeof(want));
	if (by_cgroup)
		return cgroup_msg(msg, "--order", want, " alive at once", &cg);
	mt_size_format((uint64_t)avail, have, sizeof(have));
	return mt_msg_set(msg, -EINVAL, "--order sequential (one point at a time), or fewer "
			  "points", "--order %s: %s%s alive at once is more than MemAvailable (%s)",
			  mt_order_name(cfgs[0].order), want, file ? " of tmpfs files" :
			  " of random orders and a region", have);
}

int mt_workload_check(const struct mt_config *cfg, struct mt_msg *msg)
{
	int ret;

	msg->text[0] = msg->hint[0] = '\0';
	ret = check_sizes(cfg, msg);
	if (!ret)
		ret = check_options(cfg, msg);
	if (!ret)
		ret = check_cpu(cfg, msg);
	if (!ret)
		ret = check_mthp(cfg, msg);
	if (!ret)
		ret = mt_region_check(cfg, msg);
	if (!ret)
		ret = check_memory(cfg, msg);
	return ret;
}

bool mt_workload_caveat(const struct mt_config *cfg, struct mt_msg *msg)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char line[128];

	msg->text[0] = msg->hint[0] = '\0';
	/* Not an error: the coverage will show it, but say why up front. */
	if (cfg->pages == MT_PAGES_THP && cfg->backing != MT_BACKING_ANON &&
	    cfg->backing != MT_BACKING_FILE &&
	    !mt_sys_read_line("/sys/kernel/mm/transparent_hugepage/shmem_enabled", line,
			      sizeof(line)) &&
	    (strstr(line, "[never]") || strstr(line, "[deny]"))) {
		snprintf(msg->text, sizeof(msg->text),
			 "--pages thp: shmem_enabled is %s: --backing %s gets no huge pages",
			 strstr(line, "[never]") ? "never" : "deny", mt_backing_name(cfg->backing));
		return true;
	}
	/* Allowed (will-it-scale goes past nr_cpus too), but said. */
	if (cpus > 0 && cfg->tasks > (unsigned long)cpus) {
		snprintf(msg->text, sizeof(msg->text),
			 "--tasks %lu: more tasks than the %ld online CPUs: tasks take turns, "
			 "and phase times include the waiting", cfg->tasks, cpus);
		return true;
	}
	return false;
}

int mt_workload_pool(const struct mt_config *cfg, struct mt_msg *msg)
{
	uint64_t kb = cfg->huge_size >> 10;
	struct mt_hugepool_state st;
	char file[4096], hint[256];
	int ret, handle;
	long need;

	msg->text[0] = msg->hint[0] = '\0';
	ret = mt_region_space(cfg, (unsigned int)mt_config_regions(cfg), msg);
	if (ret)
		return ret;
	if (cfg->pages != MT_PAGES_HUGETLB || !cfg->huge_size)
		return 0;
	need = (long)(cfg->region / cfg->huge_size * mt_config_regions(cfg));
	ret = mt_hugetlb_pool_read(kb, &st);
	if (ret) {
		mt_msg_set(msg, -EINVAL, NULL, "--pages hugetlb: no pool of %llu kB pages: %s",
		     (unsigned long long)kb, strerror(-ret));
		return ret;
	}
	if (st.free >= need)
		return 0;
	mt_hugetlb_pool_file(kb, file, sizeof(file));
	if (!cfg->reserve) {
		snprintf(hint, sizeof(hint), "as root: echo %ld > %.160s (or memtlb ... --reserve)",
			 st.total + need - st.free, file);
		mt_msg_set(msg, -EINVAL, hint, "--pages hugetlb: %ld pages of %llu kB needed, %ld free", need,
		     (unsigned long long)kb, st.free);
		return -ENOSPC;
	}
	ret = mt_hugetlb_reserve(kb, need, &st, &handle);
	if (ret || st.free < need) {
		if (ret)
			mt_msg_set(msg, -EINVAL, NULL, "--reserve: %s: %s", file, strerror(-ret));
		else
			mt_msg_set(msg, -EINVAL, NULL, "--reserve: %ld pages of %llu kB needed, the kernel found "
			     "only %ld", need, (unsigned long long)kb, st.free);
		if (handle >= 0)
			mt_cleanup_run(handle);
		return ret ? ret : -ENOSPC;
	}
	return 0;
}

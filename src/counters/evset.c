// SPDX-License-Identifier: MIT
/* Event sets: events/NAME.events files, parsed line by line (memtlb-events(5)). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "counters/evset.h"
#include "model/metrics.h"
#include "sys/tracefs.h"

/* An events file is a few dozen lines; a bound keeps a huge one out of memory. */
#define EVSET_FILE_MAX (1 << 20)

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * Running from a meson build tree: a directory above the executable (the
 * build root; tests sit in build/tests) has build.ninja, and meson linked
 * the source tree's events/ beside it. No path of the build is compiled in,
 * so an installed binary carries none.
 */
static int build_tree_events(char *buf, size_t len)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	struct stat st;

	if (n <= 0)
		return 0;
	dir[n] = '\0';
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(dir, '/');

		if (!slash || slash == dir)
			return 0;
		*slash = '\0';
		snprintf(path, sizeof(path), "%s/build.ninja", dir);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		snprintf(path, sizeof(path), "%s/events", dir);
		return is_dir(path) && realpath(path, dir) && (size_t)snprintf(buf, len, "%s", dir) < len;
	}
	return 0;
}

const char *mt_evsets_dir(const char *dir_override, char *buf, size_t len)
{
	const char *env = getenv("MEMTLB_EVENTS_PATH");

	if (dir_override && *dir_override)
		snprintf(buf, len, "%s", dir_override);
	else if (env && *env)
		snprintf(buf, len, "%s", env);
	else if (!build_tree_events(buf, len))
		snprintf(buf, len, "%s", MEMTLB_DATA_EVENTS);
	return buf;
}

struct parser {
	const char *file;
	unsigned int line;
	struct mt_msg *msg;
	struct mt_evsets *sets;
	struct mt_evset *set;		/* current, or NULL */
	struct mt_evset_section *sec;	/* current, or NULL */
};

static int perr(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	mt_msg_clear(p->msg);
	n = snprintf(p->msg->text, sizeof(p->msg->text), "%s:%u: ", p->file, p->line);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(p->msg->text))
		vsnprintf(p->msg->text + n, sizeof(p->msg->text) - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int valid_name(const char *s)
{
	if (!*s || strlen(s) >= MT_EVSET_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
			return 0;
	return 1;
}

static int end_set(struct parser *p)
{
	if (!p->set)
		return 0;
	if (!p->set->n_sections)
		return perr(p, "set %s: no pmu section", p->set->name);
	for (size_t i = 0; i < p->set->n_sections; i++)
		if (!p->set->sections[i].n)
			return perr(p, "set %s: pmu %s: no event", p->set->name,
				    p->set->sections[i].pmus);
	return 0;
}

static char *next_word(char **s)
{
	char *w;

	*s += strspn(*s, " \t");
	if (!**s)
		return NULL;
	w = *s;
	*s += strcspn(*s, " \t");
	if (**s)
		*(*s)++ = '\0';
	*s += strspn(*s, " \t");
	return w;
}

static int do_set(struct parser *p, char *rest)
{
	char *name = next_word(&rest);
	struct mt_evset *grown;
	int ret;

	ret = end_set(p);
	if (ret)
		return ret;
	if (!name || !valid_name(name) || *rest)
		return perr(p, "set: one name of letters, digits, - and _ expected");
	if (mt_evsets_find(p->sets, name))
		return perr(p, "set %s: defined twice", name);
	grown = realloc(p->sets->sets, (p->sets->n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	p->sets->sets = grown;
	p->set = &grown[p->sets->n++];
	memset(p->set, 0, sizeof(*p->set));
	snprintf(p->set->name, sizeof(p->set->name), "%s", name);
	snprintf(p->set->file, sizeof(p->set->file), "%s", p->file);
	p->sec = NULL;
	return 0;
}

static int do_pmu(struct parser *p, char *rest)
{
	struct mt_evset_section *grown;
	char *w;
	size_t off = 0;

	if (!p->set)
		return perr(p, "pmu: outside a set");
	grown = realloc(p->set->sections, (p->set->n_sections + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	p->set->sections = grown;
	p->sec = &grown[p->set->n_sections++];
	memset(p->sec, 0, sizeof(*p->sec));
	while ((w = next_word(&rest))) {
		for (size_t i = 0; i + 1 < p->set->n_sections; i++)
			if (mt_evset_section_has(&p->set->sections[i], w))
				return perr(p, "pmu %s: already has a section in set %s", w,
					    p->set->name);
		if (off + strlen(w) + 2 > sizeof(p->sec->pmus))
			return perr(p, "pmu: too many names");
		off += (size_t)snprintf(p->sec->pmus + off, sizeof(p->sec->pmus) - off, "%s%s",
					off ? " " : "", w);
	}
	if (!off)
		return perr(p, "pmu: at least one PMU name expected");
	return 0;
}

static int do_event(struct parser *p, char *rest)
{
	char *name = next_word(&rest), *role = next_word(&rest);
	struct mt_evset_entry *grown, *e;
	char *eq;
	int r;

	if (!p->sec)
		return perr(p, "event: before any pmu line");
	if (!name || !role || !*rest)
		return perr(p, "event: NAME ROLE MEANING expected");
	if (strlen(name) >= MT_EVENT_NAME_MAX)
		return perr(p, "event %s: name too long", name);
	/*
	 * ALIAS=EVENT: a short name for a long libpfm4 one. A tracepoint's
	 * filter has its own '=' (tlb:tlb_flush/reason=1/): one after a '/'
	 * is the filter's.
	 */
	eq = strchr(name, '=');
	if (eq && strchr(name, '/') && strchr(name, '/') < eq)
		eq = NULL;
	if (eq && (eq == name || !eq[1] || (size_t)(eq - name) >= sizeof(e->alias)))
		return perr(p, "event %s: ALIAS=EVENT expected", name);
	r = mt_role_parse(role);
	if (r < 0)
		return perr(p, "event %s: unknown role '%s'", name, role);
	for (size_t i = 0; i < p->sec->n; i++)
		if (!strcmp(p->sec->entries[i].event, name))
			return perr(p, "event %s: listed twice", name);
	grown = realloc(p->sec->entries, (p->sec->n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	p->sec->entries = grown;
	e = &grown[p->sec->n++];
	memset(e, 0, sizeof(*e));
	if (eq) {
		*eq = '\0';
		snprintf(e->alias, sizeof(e->alias), "%s", name);
		name = eq + 1;
	}
	snprintf(e->event, sizeof(e->event), "%s", name);
	e->role = r;
	snprintf(e->meaning, sizeof(e->meaning), "%s", rest);
	e->line = p->line;
	return 0;
}

static int parse_stream(struct parser *p, FILE *f, const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	p->file = path;
	p->line = 0;
	p->set = NULL;
	p->sec = NULL;
	size_t total = 0;
	ssize_t len;

	while (!ret && (len = getline(&line, &cap, f)) > 0) {
		char *s = line, *kw;

		p->line++;
		total += (size_t)len;
		if (total > EVSET_FILE_MAX) {
			ret = perr(p, "larger than %d bytes", EVSET_FILE_MAX);
			break;
		}
		if (memchr(line, '\0', (size_t)len)) {
			ret = perr(p, "NUL byte");
			break;
		}
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		/*
		 * Descriptions and meanings reach the terminal (memtlb list):
		 * a control byte there is an escape sequence, not text.
		 */
		for (ssize_t i = 0; !ret && i < len; i++)
			if (((unsigned char)line[i] < 0x20 && line[i] != '\t') || line[i] == 0x7f)
				ret = perr(p, "control character 0x%02x", (unsigned char)line[i]);
		if (ret)
			break;
		s += strspn(s, " \t");
		if (!*s || *s == '#')
			continue;
		kw = next_word(&s);
		if (!strcmp(kw, "set"))
			ret = do_set(p, s);
		else if (!strcmp(kw, "description")) {
			if (!p->set || p->sec || !*s)
				ret = perr(p, "description: TEXT expected right after set");
			else
				snprintf(p->set->description, sizeof(p->set->description), "%s", s);
		} else if (!strcmp(kw, "pmu"))
			ret = do_pmu(p, s);
		else if (!strcmp(kw, "event"))
			ret = do_event(p, s);
		else
			ret = perr(p, "unknown keyword '%s'", kw);
	}
	if (!ret)
		ret = end_set(p);
	free(line);
	return ret;
}

static int parse_file(struct parser *p, const char *path)
{
	FILE *f;
	int ret;

	struct stat st;
	int fd;

	/*
	 * Regular files only, opened without blocking: a FIFO named x.events
	 * waited for a writer and a link to /dev/zero never ended, hanging
	 * memtlb list and every --events command.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		ret = -errno;
		mt_msg_set(p->msg, 0, NULL, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > EVSET_FILE_MAX) {
		bool reg = !fstat(fd, &st) && S_ISREG(st.st_mode);

		ret = reg ? -EFBIG : -EINVAL;
		mt_msg_set(p->msg, 0, NULL, "%s: %s", path,
			 reg ? "larger than 1 MiB" : "not a regular file");
		close(fd);
		return ret;
	}
	f = fdopen(fd, "r");
	if (!f) {
		ret = -errno;
		close(fd);
		mt_msg_set(p->msg, 0, NULL, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = parse_stream(p, f, path);
	fclose(f);
	return ret;
}

int mt_evsets_parse(struct mt_evsets **out, FILE *f, const char *name, struct mt_msg *msg)
{
	struct parser p = { .msg = msg };
	int ret;

	mt_msg_clear(msg);
	p.sets = calloc(1, sizeof(*p.sets));
	if (!p.sets)
		return -ENOMEM;
	ret = parse_stream(&p, f, name);
	if (ret) {
		mt_evsets_destroy(p.sets);
		return ret;
	}
	*out = p.sets;
	return 0;
}

static int events_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 7 && !strcmp(d->d_name + n - 7, ".events");
}

int mt_evsets_load(struct mt_evsets **out, const char *dir, struct mt_msg *msg)
{
	struct parser p = { .msg = msg };
	struct dirent **names = NULL;
	int n, ret = 0;

	mt_msg_clear(msg);
	p.sets = calloc(1, sizeof(*p.sets));
	if (!p.sets)
		return -ENOMEM;
	snprintf(p.sets->dir, sizeof(p.sets->dir), "%s", dir);
	n = scandir(dir, &names, events_file, alphasort);
	if (n < 0) {
		ret = -errno;
		mt_msg_set(msg, 0, NULL, "%s: %s", dir, strerror(errno));
		mt_evsets_destroy(p.sets);
		return ret;
	}
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX + 256];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (!ret)
			ret = parse_file(&p, path);
		free(names[i]);
	}
	free(names);
	if (ret) {
		mt_evsets_destroy(p.sets);
		return ret;
	}
	*out = p.sets;
	return 0;
}

void mt_evsets_destroy(struct mt_evsets *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		for (size_t j = 0; j < s->sets[i].n_sections; j++)
			free(s->sets[i].sections[j].entries);
		free(s->sets[i].sections);
	}
	free(s->sets);
	free(s);
}

const struct mt_evset *mt_evsets_find(const struct mt_evsets *s, const char *name)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (!strcmp(s->sets[i].name, name))
			return &s->sets[i];
	return NULL;
}

bool mt_evset_section_has(const struct mt_evset_section *sec, const char *pmu)
{
	size_t len = strlen(pmu);

	for (const char *s = sec->pmus; (s = strstr(s, pmu)); s += len)
		if ((s == sec->pmus || s[-1] == ' ') && (s[len] == ' ' || !s[len]))
			return true;
	return false;
}

static int add_section(const struct mt_evset *set, const struct mt_evset_section *sec,
		       const char *qualify, struct mt_event **ev, size_t *n, struct mt_msg *msg)
{
	for (size_t i = 0; i < sec->n; i++) {
		const struct mt_evset_entry *e = &sec->entries[i];
		char name[MT_EVENT_NAME_MAX * 2], bad[160];
		struct mt_event *one, *grown;
		const char *shown = e->alias[0] ? e->alias : e->event;
		size_t got;
		bool tp;
		int ret;

		for (size_t j = 0; j < *n; j++) {
			if (!strcmp((*ev)[j].name, shown)) {
				return mt_msg_set(msg, -EINVAL, NULL,
						  "%s:%u: %s: listed twice in set %s", set->file,
						  e->line, e->event, set->name);
			}
		}
		tp = mt_tracefs_is_name(e->event, strcspn(e->event, "/"));
		if (qualify && !strstr(e->event, "::") && !tp)
			snprintf(name, sizeof(name), "%s::%s", qualify, e->event);
		else
			snprintf(name, sizeof(name), "%s", e->event);
		ret = mt_events_resolve(name, &one, &got, bad, sizeof(bad));
		/*
		 * A set's tracepoint this kernel lacks (older kernels have fewer
		 * tlb_flush reasons, other arches no exceptions:) is not
		 * supported here, not a broken set.
		 */
		if (ret == -EINVAL && tp) {
			one = calloc(1, sizeof(*one));
			if (!one)
				return -ENOMEM;
			snprintf(one->name, sizeof(one->name), "%s", e->event);
			snprintf(one->fstr, sizeof(one->fstr), "tracepoint %.160s", e->event);
			one->attr.type = PERF_TYPE_TRACEPOINT;
			one->attr.size = sizeof(one->attr);
			one->unavailable = -ENOENT;
			bad[strcspn(bad, "\n")] = '\0';
			snprintf(one->why, sizeof(one->why), "%.100s",
				 strchr(bad, ' ') ? strchr(bad, ' ') + 1 : bad);
			ret = 0;
		}
		if (ret) {
			mt_msg_set(msg, 0, NULL, "%s:%u: %s: %s", set->file, e->line, e->event,
				 ret == -EINVAL ? "libpfm4 does not know it here" : bad);
			return ret;
		}
		grown = realloc(*ev, (*n + 1) * sizeof(*grown));
		if (!grown) {
			free(one);
			return -ENOMEM;
		}
		*ev = grown;
		grown[*n] = one[0];
		free(one);
		snprintf(grown[*n].name, sizeof(grown[*n].name), "%s", shown);
		grown[*n].role = e->role;
		snprintf(grown[*n].meaning, sizeof(grown[*n].meaning), "%s", e->meaning);
		(*n)++;
	}
	return 0;
}

int mt_evset_resolve(const struct mt_evset *set, const char *pmu, struct mt_event **out,
		     size_t *n, const char **which, struct mt_msg *msg)
{
	return mt_evset_resolve_parts(set, pmu, MT_EVSET_PMU_PART | MT_EVSET_COMMON_PART, out, n,
				      which, msg);
}

int mt_evset_resolve_parts(const struct mt_evset *set, const char *pmu, unsigned int parts,
			   struct mt_event **out, size_t *n, const char **which, struct mt_msg *msg)
{
	const struct mt_evset_section *pick = NULL, *generic = NULL;
	struct mt_event *ev = NULL;
	size_t count = 0;
	int ret = 0;

	mt_msg_clear(msg);
	for (size_t i = 0; i < set->n_sections; i++) {
		const struct mt_evset_section *sec = &set->sections[i];

		if (pmu && *pmu && mt_evset_section_has(sec, pmu))
			pick = sec;
		if (mt_evset_section_has(sec, "generic"))
			generic = sec;
	}
	*which = pick ? pmu : "generic";
	if (pick && (parts & MT_EVSET_PMU_PART))
		ret = add_section(set, pick, pmu, &ev, &count, msg);
	else if (!pick && generic && (parts & MT_EVSET_COMMON_PART))
		ret = add_section(set, generic, NULL, &ev, &count, msg);
	for (size_t i = 0; !ret && (parts & MT_EVSET_COMMON_PART) && i < set->n_sections; i++)
		if (mt_evset_section_has(&set->sections[i], "any"))
			ret = add_section(set, &set->sections[i], NULL, &ev, &count, msg);
	if (!ret && !count && parts == (MT_EVSET_PMU_PART | MT_EVSET_COMMON_PART)) {
		mt_msg_set(msg, 0, NULL, "%s: set %s: no event for PMU %s and no generic section",
			 set->file, set->name, pmu && *pmu ? pmu : "(none)");
		ret = -EINVAL;
	}
	if (ret) {
		free(ev);
		return ret;
	}
	*out = ev;
	*n = count;
	return 0;
}

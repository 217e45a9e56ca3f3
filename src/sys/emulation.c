// SPDX-License-Identifier: MIT
// Is the CPU emulated (qemu TCG)? What qemu itself tells a guest.
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/emulation.h"
#include "sys/sys.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define CPUINFO_MAX (256 * 1024)

/* The value of the first "key : value" line of text, into buf; false if none. */
static bool keyed(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);

		if (n > klen && !strncmp(p, key, klen) && (p[klen] == ' ' || p[klen] == '\t' ||
							     p[klen] == ':')) {
			const char *v = memchr(p, ':', n);

			if (v) {
				v++;
				while (*v == ' ' || *v == '\t')
					v++;
				n -= (size_t)(v - p);
				if (n >= len)
					n = len - 1;
				memcpy(buf, v, n);
				buf[n] = '\0';
				return true;
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return false;
}

/* s is exactly "0x..." of value want, as /proc/cpuinfo prints MIDR fields. */
static bool hex_is(const char *s, unsigned long want)
{
	char *end;

	if (strncmp(s, "0x", 2) || !isxdigit((unsigned char)s[2]))
		return false;
	return strtoul(s + 2, &end, 16) == want && !*end;
}

static bool has_compatible(const struct mt_emulation_input *in, const char *want)
{
	size_t i = 0;

	while (in->dt_compatible && i < in->dt_compatible_len) {
		const char *s = in->dt_compatible + i;
		size_t n = strnlen(s, in->dt_compatible_len - i);

		if (n == strlen(want) && !memcmp(s, want, n))
			return true;
		i += n + 1;
	}
	return false;
}

/* The events qemu's TCG PMU model counts, as Linux's armv8 PMU names them. */
static const char *const qemu_pmu_events[] = {
	"sw_incr", "inst_retired", "cpu_cycles", "stall_frontend", "stall_backend", "stall",
};

/* events (space-separated) is not empty and holds qemu's model's alone. */
static bool qemu_pmu_only(const char *events)
{
	char buf[4096], *tok, *save = NULL;
	size_t n = 0;

	if (!events || strlen(events) >= sizeof(buf))
		return false;
	snprintf(buf, sizeof(buf), "%s", events);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save), n++) {
		bool known = false;

		for (size_t i = 0; i < sizeof(qemu_pmu_events) / sizeof(*qemu_pmu_events); i++)
			known |= !strcmp(tok, qemu_pmu_events[i]);
		if (!known)
			return false;
	}
	return n > 0;
}

static void say(struct mt_emulation *em, int emulated, const char *evidence)
{
	em->emulated = emulated;
	snprintf(em->evidence, sizeof(em->evidence), "%s", evidence);
}

void mt_emulation_judge(struct mt_emulation *em, const struct mt_emulation_input *in)
{
	char impl[32] = "", part[32] = "", machine[128] = "";
	const char *c = in->cpuinfo;

	say(em, 0, "");
	/*
	 * x86: qemu answers the hypervisor leaf with "TCGTCGTCGTCG" under TCG
	 * (its tcg-cpuid property, on by default) and "KVMKVMKVM" under KVM.
	 */
	if (in->cpuid_hv && !strncmp(in->cpuid_hv, "TCGTCGTCGTCG", 12)) {
		say(em, 1, "qemu TCG: cpuid 0x40000000 is TCGTCGTCGTCG");
		return;
	}
	/*
	 * arm64: qemu's "max" CPU under TCG has MIDR implementer 0x00 ("for
	 * software use") and part 0x051 ('Q'); under KVM "max" is the host's
	 * CPU and its MIDR. A named CPU (cortex-a57) under TCG carries that
	 * CPU's MIDR: on qemu's virt board that is told as "cannot tell".
	 */
	if (c && keyed(c, "CPU implementer", impl, sizeof(impl)) &&
	    keyed(c, "CPU part", part, sizeof(part)) &&
	    hex_is(impl, 0) && hex_is(part, 0x51)) {
		say(em, 1, "qemu TCG: MIDR implementer 0x00, part 0x051 (qemu max)");
		return;
	}
	/*
	 * qemu's arm (and riscv) virt board writes its SMBIOS system as
	 * vendor "QEMU", product "KVM Virtual Machine" under KVM and "QEMU
	 * Virtual Machine" under any other accelerator (hw/arm/virt.c,
	 * virt_build_smbios). Firmware (UEFI) passes it on; such a guest
	 * usually boots by ACPI, with no device tree to read. It is qemu's
	 * own word on the accelerator, so it outranks the PMU's events below.
	 * Besides TCG only Apple's HVF runs that board without KVM, and HVF
	 * runs the host's core alone: an Apple MIDR (implementer 0x61).
	 */
	if (in->dmi_vendor && !strcmp(in->dmi_vendor, "QEMU") && in->dmi_product) {
		bool apple = hex_is(impl, 0x61);

		if (!strcmp(in->dmi_product, "KVM Virtual Machine")) {
			say(em, 0, "qemu KVM: SMBIOS product KVM Virtual Machine");
			return;
		}
		if (!strcmp(in->dmi_product, "QEMU Virtual Machine") && !apple) {
			say(em, 1, "qemu TCG: SMBIOS product QEMU Virtual Machine, not KVM's");
			return;
		}
	}
	/*
	 * A named CPU (cortex-a57) on qemu's virt board: its MIDR is the real
	 * core's. Under KVM the guest's PMU advertises the host core's events
	 * (dozens: caches, TLBs, branches); qemu's TCG models only its own
	 * handful (pm_events in qemu's target/arm: SW_INCR, INST_RETIRED,
	 * CPU_CYCLES and the stall counts). A PMU with nothing else is qemu's.
	 */
	if (has_compatible(in, "linux,dummy-virt")) {
		if (qemu_pmu_only(in->pmu_events))
			say(em, 1, "qemu TCG: virt board, its PMU counts only qemu's modelled "
				"events");
		else
			say(em, -1, "qemu virt board (linux,dummy-virt): TCG or KVM unknown");
		return;
	}
	/*
	 * POWER: qemu's pseries says "(emulated by qemu)" in the machine line
	 * under TCG and KVM alike; only under KVM does it add a /hypervisor
	 * node (compatible "linux,kvm") to the device tree.
	 */
	if (c && keyed(c, "machine", machine, sizeof(machine)) &&
	    strstr(machine, "emulated by qemu")) {
		if (in->dt_hypervisor)
			say(em, 0, "");
		else
			say(em, 1, "qemu TCG: pSeries emulated by qemu, no KVM /hypervisor");
		return;
	}
}

/* A whole small file into a NUL-terminated buffer (len without the NUL). */
static char *slurp(const char *path, size_t max, size_t *len)
{
	char p[4096];
	char *buf;
	ssize_t n;
	size_t got = 0;
	int fd;

	fd = open(mt_sys_path(p, sizeof(p), path), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(max + 1);
	while (buf && got < max && (n = read(fd, buf + got, max - got)) > 0)
		got += (size_t)n;
	close(fd);
	if (buf) {
		buf[got] = '\0';
		*len = got;
	}
	return buf;
}

/* s without its trailing newline, as sysfs ends a one-line file; s may be NULL. */
static const char *chomp(char *s)
{
	size_t n = s ? strlen(s) : 0;

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
	return s;
}

/*
 * The armv8 PMU's event names (its sysfs events/ directory, whichever
 * armv8_* PMU it is) into buf, space-separated: false where there is none.
 */
static bool pmu_events(char *buf, size_t len)
{
	char dir[4096], ev[4096 + 300];
	struct dirent *d, *e;
	size_t off = 0;
	DIR *devs, *evs;
	bool found = false;

	buf[0] = '\0';
	devs = opendir(mt_sys_path(dir, sizeof(dir), "/sys/bus/event_source/devices"));
	while (devs && !found && (d = readdir(devs))) {
		if (strncmp(d->d_name, "armv8", 5))
			continue;
		snprintf(ev, sizeof(ev), "%s/%s/events", dir, d->d_name);
		evs = opendir(ev);
		while (evs && (e = readdir(evs))) {
			if (e->d_name[0] == '.' || off + strlen(e->d_name) + 2 > len)
				continue;
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " " : "",
						e->d_name);
			found = true;
		}
		if (evs)
			closedir(evs);
	}
	if (devs)
		closedir(devs);
	return found;
}

int mt_emulation_detect(struct mt_emulation *em)
{
	struct mt_emulation_input in = { 0 };
	char *cpuinfo, *compat, *vendor, *product, p[4096], events[4096];
	size_t len = 0;
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d, sig[3];
	char hv[13];
#endif

	cpuinfo = slurp("/proc/cpuinfo", CPUINFO_MAX, &len);
	in.cpuinfo = cpuinfo;
	compat = slurp("/sys/firmware/devicetree/base/compatible", 4096, &len);
	in.dt_compatible = compat;
	in.dt_compatible_len = compat ? len : 0;
	in.dt_hypervisor = !access(mt_sys_path(p, sizeof(p),
					       "/sys/firmware/devicetree/base/hypervisor"), F_OK);
	in.pmu_events = pmu_events(events, sizeof(events)) ? events : NULL;
	vendor = slurp("/sys/class/dmi/id/sys_vendor", 256, &len);
	in.dmi_vendor = chomp(vendor);
	product = slurp("/sys/class/dmi/id/product_name", 256, &len);
	in.dmi_product = chomp(product);
#if defined(__x86_64__) || defined(__i386__)
	/* A fixture tree describes another machine: this CPU's cpuid is not it. */
	if (!mt_sys_fixture() && __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 31))) {
		__cpuid(0x40000000, a, sig[0], sig[1], sig[2]);
		memcpy(hv, sig, 12);
		hv[12] = '\0';
		in.cpuid_hv = hv;
	}
#endif
	mt_emulation_judge(em, &in);
	free(cpuinfo);
	free(compat);
	free(vendor);
	free(product);
	return 0;
}

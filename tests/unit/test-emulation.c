// SPDX-License-Identifier: MIT
/* sys/emulation: qemu TCG told from hardware and from KVM, by what qemu shows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sys/emulation.h"

/* The lines of /proc/cpuinfo that matter, as the guests printed them. */
static const char arm64_max[] = "processor\t: 0\nBogoMIPS\t: 125.00\n"
	"CPU implementer\t: 0x00\nCPU architecture: 8\nCPU variant\t: 0x0\n"
	"CPU part\t: 0x051\nCPU revision\t: 0\n";
static const char arm64_a57[] = "processor\t: 0\nCPU implementer\t: 0x41\n"
	"CPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd07\n";
static const char pseries[] = "processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\n"
	"platform\t: pSeries\nmodel\t\t: IBM pSeries (emulated by qemu)\n"
	"machine\t\t: CHRP IBM pSeries (emulated by qemu)\nMMU\t\t: Radix\n";
static const char x86[] = "processor\t: 0\nvendor_id\t: GenuineIntel\n"
	"model name\t: Intel Xeon Processor (Icelake)\nflags\t\t: fpu hypervisor\n";
static const char dummy_virt[] = "linux,dummy-virt";

static const char *pmu;	/* the armv8 PMU's events for judge(), NULL: none */
static const char *dmi_product;	/* SMBIOS product for judge(), vendor "QEMU"; NULL: none */

static struct mt_emulation judge(const char *cpuinfo, const char *compat, bool hv,
				 const char *sig)
{
	struct mt_emulation_input in = {
		.cpuinfo = cpuinfo, .dt_compatible = compat,
		.dt_compatible_len = compat ? strlen(compat) + 1 : 0,
		.dt_hypervisor = hv, .cpuid_hv = sig, .pmu_events = pmu,
		.dmi_vendor = dmi_product ? "QEMU" : NULL, .dmi_product = dmi_product,
	};
	struct mt_emulation em;

	memset(&em, 0x55, sizeof(em));
	mt_emulation_judge(&em, &in);
	return em;
}

static void test_x86(void **state)
{
	struct mt_emulation em;

	(void)state;
	em = judge(x86, NULL, false, "TCGTCGTCGTCG");
	assert_int_equal(em.emulated, 1);
	assert_non_null(strstr(em.evidence, "TCGTCGTCGTCG"));
	em = judge(x86, NULL, false, "KVMKVMKVM\0\0\0");
	assert_int_equal(em.emulated, 0);
	assert_string_equal(em.evidence, "");
	/* No hypervisor bit: the leaf is not read; bare metal. */
	em = judge(x86, NULL, false, NULL);
	assert_int_equal(em.emulated, 0);
}

static void test_arm64(void **state)
{
	struct mt_emulation em;

	(void)state;
	em = judge(arm64_max, dummy_virt, false, NULL);
	assert_int_equal(em.emulated, 1);
	assert_non_null(strstr(em.evidence, "implementer 0x00"));
	/* A named CPU model on qemu's board, no PMU: TCG or KVM, not told. */
	em = judge(arm64_a57, dummy_virt, false, NULL);
	assert_int_equal(em.emulated, -1);
	assert_non_null(strstr(em.evidence, "linux,dummy-virt"));
	/* ... with qemu's PMU model (cortex-a57 under TCG): emulated */
	pmu = "cpu_cycles inst_retired sw_incr stall";
	em = judge(arm64_a57, dummy_virt, false, NULL);
	assert_int_equal(em.emulated, 1);
	assert_non_null(strstr(em.evidence, "qemu's modelled events"));
	/* ... with the host core's PMU (KVM passes its events): not told */
	pmu = "cpu_cycles inst_retired l1d_cache l1d_cache_refill l1d_tlb_refill br_mis_pred";
	em = judge(arm64_a57, dummy_virt, false, NULL);
	assert_int_equal(em.emulated, -1);
	/* an empty list is no evidence */
	pmu = "";
	em = judge(arm64_a57, dummy_virt, false, NULL);
	assert_int_equal(em.emulated, -1);
	pmu = NULL;
	/* An empty or odd implementer field is no evidence. */
	em = judge("CPU implementer\t: \nCPU part\t: 0x051\n", NULL, false, NULL);
	assert_int_equal(em.emulated, 0);
	em = judge("CPU implementer\t: 0x00 junk\nCPU part\t: 0x051\n", NULL, false, NULL);
	assert_int_equal(em.emulated, 0);
	/* The same CPU on a real board: hardware. */
	em = judge(arm64_a57, "arm,juno\0arm,vexpress", false, NULL);
	assert_int_equal(em.emulated, 0);
}

/*
 * qemu's virt board booted by UEFI: its SMBIOS product says the
 * accelerator, with or without a device tree, whatever the PMU shows.
 */
static const char arm64_apple[] = "processor\t: 0\nCPU implementer\t: 0x61\n"
	"CPU architecture: 8\nCPU variant\t: 0x2\nCPU part\t: 0x033\n";

static void test_arm64_smbios(void **state)
{
	struct mt_emulation em;

	(void)state;
	/* a cortex-a57 under TCG booted by ACPI: no device tree, no PMU */
	dmi_product = "QEMU Virtual Machine";
	em = judge(arm64_a57, NULL, false, NULL);
	assert_int_equal(em.emulated, 1);
	assert_non_null(strstr(em.evidence, "SMBIOS"));
	/* ... and with the device tree too */
	em = judge(arm64_a57, dummy_virt, false, NULL);
	assert_int_equal(em.emulated, 1);
	/* KVM says so, even where its PMU would look like qemu's model */
	dmi_product = "KVM Virtual Machine";
	pmu = "cpu_cycles sw_incr";
	em = judge(arm64_a57, dummy_virt, false, NULL);
	assert_int_equal(em.emulated, 0);
	assert_non_null(strstr(em.evidence, "KVM"));
	pmu = NULL;
	em = judge(arm64_a57, NULL, false, NULL);
	assert_int_equal(em.emulated, 0);
	/* not KVM with the host's Apple core: HVF, hardware, not emulated */
	dmi_product = "QEMU Virtual Machine";
	em = judge(arm64_apple, NULL, false, NULL);
	assert_int_equal(em.emulated, 0);
	/* a product the user set (-smbios type=1): no word, the board's rule */
	dmi_product = "my board";
	em = judge(arm64_a57, dummy_virt, false, NULL);
	assert_int_equal(em.emulated, -1);
	em = judge(arm64_a57, NULL, false, NULL);
	assert_int_equal(em.emulated, 0);
	/* x86's qemu boards name the chipset, not the accelerator */
	dmi_product = "Standard PC (Q35 + ICH9, 2009)";
	em = judge(x86, NULL, false, "KVMKVMKVM\0\0\0");
	assert_int_equal(em.emulated, 0);
	dmi_product = NULL;
}

static void test_pseries(void **state)
{
	struct mt_emulation em;

	(void)state;
	em = judge(pseries, "qemu,pseries", false, NULL);
	assert_int_equal(em.emulated, 1);
	assert_non_null(strstr(em.evidence, "pSeries"));
	/* KVM adds /hypervisor (compatible "linux,kvm"): the PMU is real. */
	em = judge(pseries, "qemu,pseries", true, NULL);
	assert_int_equal(em.emulated, 0);
}

/* The fixture trees hold the guests' own files (tests/data/sysroot-qemu-*). */
static void test_detect_sysroot(void **state)
{
	const char *data = getenv("MEMTLB_TEST_DATA");
	char root[4096];
	struct mt_emulation em;

	(void)state;
	assert_non_null(data);
	snprintf(root, sizeof(root), "%s/sysroot-qemu-arm64", data);
	setenv("MEMTLB_SYSROOT", root, 1);
	assert_int_equal(mt_emulation_detect(&em), 0);
	assert_int_equal(em.emulated, 1);
	snprintf(root, sizeof(root), "%s/sysroot-qemu-pseries", data);
	setenv("MEMTLB_SYSROOT", root, 1);
	assert_int_equal(mt_emulation_detect(&em), 0);
	assert_int_equal(em.emulated, 1);
	/* a cortex-a57 under TCG booted by UEFI and ACPI: SMBIOS alone */
	snprintf(root, sizeof(root), "%s/sysroot-qemu-arm64-acpi", data);
	setenv("MEMTLB_SYSROOT", root, 1);
	assert_int_equal(mt_emulation_detect(&em), 0);
	assert_int_equal(em.emulated, 1);
	assert_non_null(strstr(em.evidence, "SMBIOS product QEMU Virtual Machine"));
	/* A machine's tree without a qemu sign: no cpuid read under a sysroot. */
	snprintf(root, sizeof(root), "%s/sysroot-pmu", data);
	setenv("MEMTLB_SYSROOT", root, 1);
	assert_int_equal(mt_emulation_detect(&em), 0);
	assert_int_equal(em.emulated, 0);
	unsetenv("MEMTLB_SYSROOT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86),
		cmocka_unit_test(test_arm64),
		cmocka_unit_test(test_arm64_smbios),
		cmocka_unit_test(test_pseries),
		cmocka_unit_test(test_detect_sysroot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/*
 * The clear loops: the one file with inline assembly. The roofline needs
 * the bandwidth of the instructions themselves (what the kernel's
 * clear_page variants run), not of whatever memset the C library picks,
 * so each method is one asm loop the compiler can neither vectorise nor
 * replace. Every loop clears 64 bytes (a cache line) per turn: the caller
 * passes a 64-byte-aligned length, never 0, so the loops need no tail.
 * meson builds this file with -O2 and no sanitizer, as the touch loops.
 */
#include <errno.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "model/roofline.h"
#include "workload/clear.h"

#if defined(__x86_64__)

/*
 * rep stosb: the kernel's clear_page_erms (and clear_user) on CPUs with
 * ERMS or FSRM; the microcode picks the store width and may skip the read
 * for ownership of whole lines. rdi: where, rcx: how many, al: the byte.
 */
static void clear_stosb(void *p, size_t len)
{
	asm volatile("rep stosb" : "+D"(p), "+c"(len) : "a"(0) : "memory");
}

/*
 * clzero (AMD, cpuid 0x80000008 EBX bit 0): zeroes the whole cache line
 * that rax points into without reading it; weakly ordered like the
 * non-temporal stores, hence the sfence that makes the clear complete
 * before the clock is read.
 */
static void clear_clzero(void *p, size_t len)
{
	asm volatile("1:\n\t"
		     "clzero\n\t"
		     "add $64, %%rax\n\t"
		     "sub $64, %1\n\t"
		     "jnz 1b\n\t"
		     "sfence"
		     : "+a"(p), "+r"(len) : : "cc", "memory");
}

/*
 * movnti: 8-byte non-temporal stores from a general register, eight per
 * line (the kernel's clear_page_orig family uses plain 8-byte stores; the
 * non-temporal kind bypasses the cache, as a huge clear would want).
 */
static void clear_movnti(void *p, size_t len)
{
	asm volatile("xor %%eax, %%eax\n"
		     "1:\n\t"
		     "movnti %%rax, (%0)\n\t"
		     "movnti %%rax, 8(%0)\n\t"
		     "movnti %%rax, 16(%0)\n\t"
		     "movnti %%rax, 24(%0)\n\t"
		     "movnti %%rax, 32(%0)\n\t"
		     "movnti %%rax, 40(%0)\n\t"
		     "movnti %%rax, 48(%0)\n\t"
		     "movnti %%rax, 56(%0)\n\t"
		     "add $64, %0\n\t"
		     "sub $64, %1\n\t"
		     "jnz 1b\n\t"
		     "sfence"
		     : "+r"(p), "+r"(len) : : "rax", "cc", "memory");
}

/*
 * movntdq: 16-byte non-temporal SSE2 stores, four per line; xmm0 zeroed
 * in the same asm statement, since the compiler keeps nothing in it for us.
 */
static void clear_movntdq(void *p, size_t len)
{
	asm volatile("pxor %%xmm0, %%xmm0\n"
		     "1:\n\t"
		     "movntdq %%xmm0, (%0)\n\t"
		     "movntdq %%xmm0, 16(%0)\n\t"
		     "movntdq %%xmm0, 32(%0)\n\t"
		     "movntdq %%xmm0, 48(%0)\n\t"
		     "add $64, %0\n\t"
		     "sub $64, %1\n\t"
		     "jnz 1b\n\t"
		     "sfence"
		     : "+r"(p), "+r"(len) : : "xmm0", "cc", "memory");
}

bool mt_clear_supported(int method)
{
	unsigned int a, b, c, d;

	switch (method) {
	case MT_CLEAR_REP_STOSB:
	case MT_CLEAR_MOVNTI:
	case MT_CLEAR_MOVNTDQ:
		return true;	/* SSE2 and rep stosb are part of x86-64 */
	case MT_CLEAR_CLZERO:
		return __get_cpuid(0x80000008, &a, &b, &c, &d) && (b & 1);
	}
	return false;
}

int mt_clear_run(int method, void *p, size_t len)
{
	/* no cpuid here: it is called per chunk, and a hypervisor traps cpuid */
	if (!p || !len || len % 64 || (uintptr_t)p % 64 || method < 0 ||
	    method >= MT_CLEAR_METHODS)
		return -EINVAL;
	switch (method) {
	case MT_CLEAR_REP_STOSB:
		clear_stosb(p, len);
		break;
	case MT_CLEAR_CLZERO:
		clear_clzero(p, len);
		break;
	case MT_CLEAR_MOVNTI:
		clear_movnti(p, len);
		break;
	case MT_CLEAR_MOVNTDQ:
		clear_movntdq(p, len);
		break;
	}
	return 0;
}

#else	/* the methods are x86-64's: elsewhere the roofline has no zeroing part */

bool mt_clear_supported(int method)
{
	(void)method;
	return false;
}

int mt_clear_run(int method, void *p, size_t len)
{
	(void)method;
	(void)p;
	(void)len;
	return -EOPNOTSUPP;
}

#endif

// SPDX-License-Identifier: MIT
/*
 * cpuid-sig: the hypervisor's cpuid signature, read here and not by
 * memtlb, for the tests to check memtlb's reading against. Prints the 12
 * bytes of leaf 0x40000000 (EBX ECX EDX, NULs cut, the rest as they are)
 * and exits 0; exits 1 where cpuid 1 has no hypervisor bit (bare metal:
 * leaf 0x40000000 is then not the hypervisor's), 77 off x86.
 */
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

int main(void)
{
	unsigned int a, b, c, d;
	char sig[13];

	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return 1;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	printf("%s\n", sig);
	return 0;
}
#else
int main(void)
{
	return 77;
}
#endif

/* SPDX-License-Identifier: MIT */
#ifndef MEMTLB_CLI_SYSINFO_H
#define MEMTLB_CLI_SYSINFO_H

#include "model/config.h"
#include "sys/sysinfo.h"

/*
 * Before a stat or sweep run: the system check without its 1 s steal
 * sample, one line on stderr when it finds anything (memtlb sysinfo
 * --check says what). Returns how many warnings.
 */
unsigned int mt_sysinfo_precheck(const struct mt_sysinfo *si, const struct mt_config *cfg);

#endif

#!/bin/sh
# SPDX-License-Identifier: MIT
# scdoc SCDOC: the page from stdin, with hyphenation off after .TH: groff's
# man macros turn it back on there (scdoc's own .nh comes before), and an
# option or event name broken by a hyphen (WALK_COM-PLETED) cannot be copied.
# scdoc's failure is the build's: its output is kept before it is edited.
page=$("$1") || exit
printf '%s\n' "$page" | sed '/^\.TH /a\
.nh'

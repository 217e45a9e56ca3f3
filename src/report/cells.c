// SPDX-License-Identifier: MIT
/* Cells: how one number is shown, the same in every table. */
#include <math.h>
#include <stdio.h>

#include "report/cells.h"

void mt_report_number(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a != 0.0 && (a >= 1e7 || a < 1e-3))
		snprintf(buf, len, "%.3g", v);
	else if (a >= 100.0 || v == (double)(long long)v)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3f", v);
}

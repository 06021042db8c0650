/* clock.h: the wall clock the commands time their work with (seconds on
 * the monotonic clock, for durations and rates only). */
#ifndef NOC_CLOCK_H
#define NOC_CLOCK_H

double noc_wall_seconds(void);

#endif

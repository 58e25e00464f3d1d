/**
 * What every benchmark reports of its samples: the median (the upper middle one of an even count), and figures
 * rounded to two decimals.
 */

/** The median of `xs` (not empty; the upper middle of an even count), without sorting `xs` itself. */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

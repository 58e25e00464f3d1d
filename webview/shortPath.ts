/** The last two segments of a path (`…/src/a.ts`), enough to tell files apart in a narrow sidebar. */
export function shortPath(file: string): string {
  const segments = file.split(/[\\/]/).filter(Boolean);
  return segments.length <= 2 ? file : `…/${segments.slice(-2).join("/")}`;
}

/** Whether an event type is covered by any of the patterns. */
export function matchesEventPatterns(type: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))));
}

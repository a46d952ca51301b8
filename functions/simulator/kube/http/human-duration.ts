/**
 * Durations as kubectl and the API server's table printers show ages: `45s`, `5m7s`, `3h2m`,
 * `2d3h`, `123d` (Kubernetes' `duration.HumanDuration`).
 */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
}

/** The age of an RFC 3339 timestamp at `nowMs`, or `<unknown>`. */
export function ageOf(timestamp: unknown, nowMs: number): string {
  const at = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(at) ? '<unknown>' : humanDuration(nowMs - at);
}

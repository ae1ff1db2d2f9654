// The engine's statistics (get_edit_stats) as a text table for the output channel. The
// figures and the summary line are the engine's; this only lays them out.

function counts(map) {
  return Object.entries(map ?? {})
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

function hints(map) {
  return Object.entries(map ?? {})
    .map(([k, h]) => `${k} ${h.succeeded}/${h.used}`)
    .join(', ');
}

/** `result`: a get_edit_stats result. Returns the lines to show. */
export function statsTable(result) {
  if (!result?.ok) return [`Statistics unavailable: ${result?.error?.message ?? 'no result'}`];
  const header = ['tool', 'calls', 'applied', 'dry runs', 'refused', 'matched via', 'refusals', 'hints (helped/used)'];
  const rows = Object.entries(result.stats ?? {})
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([tool, s]) => [
      tool,
      String(s.calls),
      String(s.applied),
      String(s.previewed),
      String(s.refused),
      counts(s.matched_via),
      counts(s.errors),
      hints(s.hints),
    ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i >= 1 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [
    result.summary ?? result.message,
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
  ];
}

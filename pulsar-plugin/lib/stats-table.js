'use strict';
// The statistics view's table: one row per tool, one column per outcome. It reads the
// engine's statistics (`statsJson().tools`: calls, applied, previewed, refused, errors by
// kind, matched_via) and lays them out; it counts nothing itself.

/**
 * {columns: [{key, label}], rows: [{tool, cells: {key: number}}], totals: {key: number}}.
 * Columns: calls, applied, dry runs, dry runs committed, recovered (applied or previewed
 * through a tolerance other than an exact match), refused, then one column per refusal
 * kind seen.
 */
function statsTable(tools) {
  const names = Object.keys(tools || {}).sort();
  const kinds = new Set();
  for (const n of names) for (const k of Object.keys(tools[n].errors || {})) kinds.add(k);
  const columns = [
    { key: 'calls', label: 'calls' },
    { key: 'applied', label: 'applied' },
    { key: 'previewed', label: 'dry runs' },
    { key: 'dry_runs_committed', label: 'dry runs committed' },
    { key: 'recovered', label: 'recovered' },
    { key: 'refused', label: 'refused' },
    ...[...kinds].sort().map((k) => ({ key: `error:${k}`, label: k })),
  ];
  const totals = Object.fromEntries(columns.map((c) => [c.key, 0]));
  const rows = names.map((tool) => {
    const t = tools[tool];
    const recovered = Object.entries(t.matched_via || {})
      .filter(([via]) => via !== 'exact')
      .reduce((n, [, count]) => n + count, 0);
    const cells = {
      calls: t.calls || 0,
      applied: t.applied || 0,
      previewed: t.previewed || 0,
      dry_runs_committed: t.dry_runs_committed || 0,
      recovered,
      refused: t.refused || 0,
    };
    for (const k of kinds) cells[`error:${k}`] = (t.errors && t.errors[k]) || 0;
    for (const c of columns) totals[c.key] += cells[c.key];
    return { tool, cells };
  });
  return { columns, rows, totals };
}

module.exports = { statsTable };

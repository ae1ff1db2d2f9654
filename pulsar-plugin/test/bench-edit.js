'use strict';
// Figure for docs/pulsar.md (a measurement, not a test): one str_replace in an open
// 100 000-line buffer (5.2 MB), end to end through the host as an agent's call runs
// (engine call with the buffer's text, stale check, one transaction, new_text check),
// without HTTP. Run: node --no-experimental-require-module pulsar-plugin/test/bench-edit.js
const { tempProject, openBuffer, makeHost } = require('./helpers');

(async () => {
  const lines = Array.from({ length: 100000 }, (_, i) => `    let value_${i} = compute(${i}); // line ${i}`);
  const p = tempProject({ 'big.rs': `${lines.join('\n')}\n` });
  try {
    const buffer = await openBuffer(p.file('big.rs'));
    const { host } = makeHost({ roots: [p.root], buffers: [buffer] });
    const rounds = 21;
    const times = [];
    for (let i = 0; i < rounds; i++) {
      const n = 50000 + i;
      const t = process.hrtime.bigint();
      const r = await host.call('str_replace', { path: 'big.rs', old_str: `let value_${n} = compute(${n});`, new_str: `let value_${n} = compute(${n} + 1);` });
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (r.isError) throw new Error(r.content[0].text);
    }
    times.sort((a, b) => a - b);
    console.log(
      `str_replace in an open buffer of ${buffer.getLineCount() - 1} lines, ${buffer.getText().length} UTF-16 units: median ${times[rounds >> 1].toFixed(1)} ms, min ${times[0].toFixed(1)} ms (${rounds} calls)`,
    );
  } finally {
    p.cleanup();
  }
})();

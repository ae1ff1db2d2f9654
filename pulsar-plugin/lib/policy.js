'use strict';
// The shared host policy (js/host-policy, bundled into vendor/host.js) bound to the
// engine: the host refusals (worded by the engine), the review timeout default, and which
// tools edit. Loaded on first use, like the engine.

const { loadEngine } = require('./engine');

let bound = null;

/** {refusals, REVIEW_TIMEOUT_SECONDS, reviewTimeoutSeconds, editingTools, RefusalError, …}. */
function policy() {
  if (bound) return bound;
  const { engine, hostPolicy } = loadEngine();
  bound = { ...hostPolicy, refusals: hostPolicy.createRefusals(engine) };
  return bound;
}

/** Whether `e` is a host refusal (a host-policy RefusalError carrying its result). */
function isRefusal(e) {
  return e !== null && typeof e === 'object' && typeof e.kind === 'string' && e.result && e.result.ok === false;
}

module.exports = { policy, isRefusal };

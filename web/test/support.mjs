// Shared by the playground's tests: the recovery probe, the static server, Chromium.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const distDir = path.join(webDir, 'dist');
export const outputDir = path.resolve(webDir, '../test-output/web');

/** Starts web/serve.mjs on a free port; resolves to {url, close()}. */
export function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(webDir, 'serve.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve.mjs did not start: ${out}`)), 15000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[0],
          close: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', done), child.kill('SIGTERM')))),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`serve.mjs exited (${code}): ${out}`)));
  });
}

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

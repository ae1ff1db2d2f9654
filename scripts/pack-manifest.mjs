#!/usr/bin/env node
// scripts/pack-manifest.mjs DIR — writes DIR/manifest.json, the MCP bundle's manifest
// (manifest_version 0.3), for the package unpacked in DIR: name, version, description and
// license from its package.json, the server as `node node-server/bin.js mcp --root <the
// folder the user picks>`, and the tool list from the engine's toolSchemas(). Used by
// scripts/pack; `mcpb validate` checks the result.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = path.resolve(process.argv[2]);
const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const { toolSchemas } = await import(pathToFileURL(path.join(dir, 'index.node.js')).href);
const firstSentence = (text) => (text ?? '').split(/(?<=\.)\s/)[0].trim();

const manifest = {
  manifest_version: '0.3',
  name: pkg.name,
  display_name: 'anchored-edit',
  version: pkg.version,
  description: pkg.description,
  author: { name: 'the anchored-edit contributors' },
  repository: { type: 'git', url: pkg.repository?.url ?? pkg.repository },
  license: pkg.license,
  keywords: ['edit', 'coding-agent', 'refactoring', 'patch'],
  server: {
    type: 'node',
    entry_point: 'node-server/bin.js',
    mcp_config: {
      command: 'node',
      args: ['${__dirname}/node-server/bin.js', 'mcp', '--root', '${user_config.root}'],
    },
  },
  tools: toolSchemas().map((t) => ({ name: t.name, description: firstSentence(t.description ?? t.title) })),
  compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: pkg.engines?.node ?? '>=20.19' } },
  user_config: {
    root: {
      type: 'directory',
      title: 'Project folder',
      description: 'The folder the agent may edit: every path is relative to it and nothing outside it is read or written.',
      required: true,
    },
  },
};
fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');

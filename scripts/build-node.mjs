// Bundles the command-line front end into out/cli/index.js, the package's `leadkeeper` bin.
import { build } from 'esbuild'

await build({
  entryPoints: ['electron/cli/index.ts'],
  outfile: 'out/cli/index.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
})

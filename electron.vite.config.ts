import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'
import { fileURLToPath } from 'node:url'

const alias = {
  '@': fileURLToPath(new URL('./src', import.meta.url)),
  '@shared': fileURLToPath(new URL('./electron/shared', import.meta.url)),
  '@domain': fileURLToPath(new URL('./electron/domain', import.meta.url)),
}

export default defineConfig({
  main: {
    build: {
      // electron-store is ESM-only and must travel inside the main bundle.
      externalizeDeps: { exclude: ['electron-store'] },
      rollupOptions: { input: { index: 'electron/main/index.ts' } },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can only be CommonJS and cannot require packages or chunks: bundle
      // everything into one file.
      externalizeDeps: false,
      isolatedEntries: true,
      rollupOptions: {
        input: { index: 'electron/preload/index.ts' },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src',
    resolve: { alias },
    plugins: [vue()],
    build: {
      // electron-vite leaves the renderer unminified; every start fetches, parses and compiles the
      // first screen's code (the startup bench's initial JS and shell interactive).
      minify: true,
      rollupOptions: { input: fileURLToPath(new URL('./src/index.html', import.meta.url)) },
    },
  },
})

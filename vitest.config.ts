import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'
import { fileURLToPath } from 'node:url'

const alias = {
  '@': fileURLToPath(new URL('./src', import.meta.url)),
  '@shared': fileURLToPath(new URL('./electron/shared', import.meta.url)),
  '@domain': fileURLToPath(new URL('./electron/domain', import.meta.url)),
}

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'tests/unit/electron/**/*.test.ts',
            'tests/unit/lint/**/*.test.ts',
            'tests/integration/**/*.test.ts',
          ],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [vue()],
        resolve: { alias },
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['tests/unit/src/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
})

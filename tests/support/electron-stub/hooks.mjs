// Module hooks that answer `import 'electron'` with the stub, so a built main bundle loads in Node.
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron')
    return { url: new URL('./electron.mjs', import.meta.url).href, shortCircuit: true }
  return nextResolve(specifier, context)
}

import type { Handlers, SettingsView } from '../shared/contract'
import { ok } from '../shared/result'
import { originOf } from '../domain/service-address'
import { maskKey, type BackendHost } from './host'
import type { Connection } from './connection'

type SettingsHandlers = Pick<
  Handlers,
  'settings/get' | 'settings/update' | 'settings/setKey' | 'settings/clearKey'
>

export function settingsView(host: BackendHost, connection: Connection): SettingsView {
  const settings = host.settings.load()
  const { key, storage } = host.keys.read()
  return {
    mode: connection.mode(),
    useSandbox: settings.useSandbox,
    baseUrl: settings.baseUrl,
    sandboxUrl: connection.sandboxUrl(),
    key: { set: key !== null, masked: key === null ? null : maskKey(key), storage },
    secretStore: host.keys.secretStore(),
    lowBalanceThreshold: settings.lowBalanceThreshold,
    rateLimitPerMinute: settings.rateLimitPerMinute,
  }
}

export function createSettingsHandlers(host: BackendHost, connection: Connection): SettingsHandlers {
  const changed = () => {
    connection.invalidate()
    const view = settingsView(host, connection)
    host.emit('settings/changed', view)
    return ok(view)
  }
  return {
    'settings/get': async () => ok(settingsView(host, connection)),
    'settings/update': async (patch) => {
      const current = host.settings.load()
      // Whoever can change the address (the renderer, or a script that runs in it) could otherwise have
      // the key sent anywhere: a key entered for one service is never sent to another's origin, so
      // moving the address to another origin forgets it and the user enters it again. A key the host
      // was started with names no address of its own: the first one the user sets is its service's.
      if (patch.baseUrl !== undefined && originOf(patch.baseUrl) !== originOf(current.baseUrl)) {
        const held = host.keys.read()
        const firstAddress = held.fromEnvironment === true && originOf(current.baseUrl) === null
        if (held.key !== null && !firstAddress) host.keys.clear()
      }
      host.settings.save({
        baseUrl: patch.baseUrl ?? current.baseUrl,
        useSandbox: patch.useSandbox ?? current.useSandbox,
        lowBalanceThreshold: patch.lowBalanceThreshold ?? current.lowBalanceThreshold,
        rateLimitPerMinute: patch.rateLimitPerMinute ?? current.rateLimitPerMinute,
      })
      return changed()
    },
    'settings/setKey': async ({ key, storage }) => {
      const stored = host.keys.set(key, storage)
      if (!stored.ok) return stored
      return changed()
    },
    'settings/clearKey': async () => {
      host.keys.clear()
      return changed()
    },
  }
}

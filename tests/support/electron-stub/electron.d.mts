export interface StubWebContents {
  mainFrame: { url: string }
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null
  emit(event: string, ...args: unknown[]): boolean
}

export interface StubWindow {
  options: { webPreferences: Record<string, unknown> }
  webContents: StubWebContents
  loaded?: string
}

type HeadersMap = Record<string, string[]>

export declare const recorded: {
  windows: StubWindow[]
  handlers: Map<string, (event: unknown, input: unknown) => Promise<unknown>>
  listeners: Map<string, (event: unknown, input: unknown) => void>
  schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>
  protocolHandlers: Map<string, (request: Request) => Promise<Response>>
  sent: Array<{ channel: string; payload: unknown }>
  opened: string[]
  exposed: Record<string, unknown>
  menu: unknown
  permissionRequest:
    ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null
  permissionCheck: (() => boolean) | null
  progress: number[]
  notifications: Array<{ title: string; body: string }>
  headersReceived:
    | ((
        details: { responseHeaders: HeadersMap },
        callback: (response: { responseHeaders: HeadersMap }) => void,
      ) => void)
    | null
}

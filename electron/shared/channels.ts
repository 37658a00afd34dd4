/**
 * The names of the contract's channels and events, without their schemas: what the preload needs to
 * refuse anything else, without carrying a validation library into every window. `contract.ts`
 * checks at compile time that these lists and its declarations are the same.
 */
export const channelNameList = [
  'app/info',
  'settings/get',
  'settings/update',
  'settings/setKey',
  'settings/clearKey',
  'account/get',
  'connection/get',
  'connection/cancelWaits',
  'jobs/list',
  'jobs/get',
  'jobs/stageRows',
  'jobs/estimate',
  'jobs/startEnrichment',
  'jobs/startLeadSearch',
  'jobs/startCompanySearch',
  'jobs/results',
  'jobs/unacknowledged',
  'jobs/ack',
  'jobs/cancel',
  'jobs/resume',
  'jobs/setCap',
  'jobs/uncertainEvidence',
  'jobs/resolveUncertain',
  'jobs/takeSetAside',
  'files/pickCsv',
  'sandbox/sample',
  'lookup/company',
  'lookup/lead',
] as const

export const eventNameList = [
  'settings/changed',
  'account/changed',
  'connection/changed',
  'jobs/progress',
  'jobs/state',
  'jobs/results',
  'jobs/setAside',
] as const

export type ChannelNameOf = (typeof channelNameList)[number]
export type EventNameOf = (typeof eventNameList)[number]

export function isListedChannel(value: unknown): value is ChannelNameOf {
  return typeof value === 'string' && (channelNameList as readonly string[]).includes(value)
}

export function isListedEvent(value: unknown): value is EventNameOf {
  return typeof value === 'string' && (eventNameList as readonly string[]).includes(value)
}

/**
 * What the plan refused, learnt from a 402 and remembered on this computer, so the options it
 * concerns are greyed out with the service's own reason instead of failing again.
 */
export interface PlanLimits {
  phone?: string
  catchAll?: string
}

const storageKey = 'leadkeeper.planLimits'

export function readPlanLimits(): PlanLimits {
  try {
    return JSON.parse(localStorage.getItem(storageKey) ?? '{}') as PlanLimits
  } catch {
    return {}
  }
}

/** Returns the limits including what this failure teaches, and remembers them. */
export function learnFromFailure(error: { code: string; message: string }): PlanLimits {
  const limits = readPlanLimits()
  if (error.code !== 'plan') return limits
  if (/phone/i.test(error.message)) limits.phone = error.message
  if (/catch.?all/i.test(error.message)) limits.catchAll = error.message
  localStorage.setItem(storageKey, JSON.stringify(limits))
  return limits
}

export function forgetPlanLimits(): void {
  localStorage.removeItem(storageKey)
}

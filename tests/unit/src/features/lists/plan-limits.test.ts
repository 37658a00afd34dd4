import { beforeEach, describe, expect, it } from 'vitest'
import { forgetPlanLimits, learnFromFailure, readPlanLimits } from '@/features/lists/plan-limits'

const phoneRefused = "You don't have access to phone number enrichment feature. Please upgrade your plan."
const catchAllRefused = "You don't have access to verify catch_all feature. Please upgrade your plan."

describe('plan limits learnt from refusals', () => {
  beforeEach(() => forgetPlanLimits())

  it('remembers the service’s own reason for each add-on the plan lacks', () => {
    expect(learnFromFailure({ code: 'plan', message: phoneRefused })).toEqual({ phone: phoneRefused })
    expect(learnFromFailure({ code: 'plan', message: catchAllRefused })).toEqual({
      phone: phoneRefused,
      catchAll: catchAllRefused,
    })
    expect(readPlanLimits()).toEqual({ phone: phoneRefused, catchAll: catchAllRefused })
  })

  it('learns nothing from other failures, such as an empty balance', () => {
    expect(learnFromFailure({ code: 'credits', message: 'You ran out of credits' })).toEqual({})
    expect(readPlanLimits()).toEqual({})
  })
})

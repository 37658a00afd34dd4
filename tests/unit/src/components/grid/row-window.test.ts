import { describe, expect, it } from 'vitest'
import { RowWindow } from '@/components/grid/row-window'

function source(total: number) {
  const calls: [number, number][] = []
  let release: (() => void) | null = null
  let hold = false
  const fetch = async (start: number, count: number) => {
    calls.push([start, count])
    if (hold) await new Promise<void>((resolve) => (release = resolve))
    return Array.from({ length: Math.max(0, Math.min(count, total - start)) }, (_, at) => `row ${start + at}`)
  }
  return { fetch, calls, holdNext: () => (hold = true), release: () => release?.() }
}

describe('RowWindow', () => {
  it('fetches the pages covering a range once and serves rows from them', async () => {
    const rows = source(1000)
    const window = new RowWindow(rows.fetch, 100)
    expect(await window.ensure(150, 260)).toBe(true)
    expect(rows.calls).toEqual([
      [100, 100],
      [200, 100],
    ])
    expect(window.get(150)).toBe('row 150')
    expect(window.get(299)).toBe('row 299')
    expect(window.get(300)).toBeUndefined()
    expect(await window.ensure(120, 200)).toBe(false)
    expect(rows.calls).toHaveLength(2)
  })

  it('keeps only the most recently used pages', async () => {
    const rows = source(10_000)
    const window = new RowWindow(rows.fetch, 100, 3)
    await window.ensure(0, 100)
    await window.ensure(100, 200)
    await window.ensure(0, 10)
    await window.ensure(200, 400)
    expect(window.get(0)).toBe('row 0')
    expect(window.get(150)).toBeUndefined()
    expect(window.get(399)).toBe('row 399')
  })

  it('fetches a page once while it is loading and lets a failed page be fetched again', async () => {
    const rows = source(1000)
    const window = new RowWindow(rows.fetch, 100)
    rows.holdNext()
    const first = window.ensure(0, 10)
    const second = window.ensure(5, 20)
    await Promise.resolve()
    expect(rows.calls).toHaveLength(1)
    rows.release()
    await Promise.all([first, second])
    expect(window.get(19)).toBe('row 19')
    let failing = true
    const flaky = new RowWindow(async (start: number) => {
      if (failing) throw new Error('closed')
      return [`row ${start}`]
    }, 1)
    await expect(flaky.ensure(0, 1)).rejects.toThrow('closed')
    failing = false
    await flaky.ensure(0, 1)
    expect(flaky.get(0)).toBe('row 0')
  })
})

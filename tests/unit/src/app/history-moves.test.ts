import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { watchHistoryMoves } from '@/app/history-moves'

/**
 * The app's own history in this window (the browser's, as the app runs): three pages visited, then
 * moved through by keys and by the mouse's side buttons.
 */
async function visited() {
  const page = { template: '<div />' }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: ['/', '/a', '/b'].map((path) => ({ path, component: page })),
  })
  const moves: number[] = []
  router.go = (delta: number) => void moves.push(delta)
  await router.push('/')
  await router.push('/a')
  return { router, moves }
}

let stop = () => {}
afterEach(() => stop())

function press(key: string, init: KeyboardEventInit = { altKey: true }, target: EventTarget = window) {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init })
  target.dispatchEvent(event)
  return event
}

function button(type: 'mousedown' | 'mouseup', which: number) {
  const event = new MouseEvent(type, { button: which, bubbles: true, cancelable: true })
  window.dispatchEvent(event)
  return event
}

describe('moving back and forward', () => {
  it('goes back with Alt+Left and button 3, forward with Alt+Right and button 4, holding the browser back', async () => {
    const { router, moves } = await visited()
    window.history.replaceState({ back: '/', forward: '/b' }, '')
    stop = watchHistoryMoves(router)
    expect(press('ArrowLeft').defaultPrevented).toBe(true)
    press('ArrowRight')
    expect(button('mousedown', 3).defaultPrevented).toBe(true)
    button('mouseup', 3)
    button('mouseup', 4)
    expect(moves).toEqual([-1, 1, -1, 1])
  })

  it('does not leave the app, nor take the keys of a text field or another chord', async () => {
    const { router, moves } = await visited()
    window.history.replaceState({ back: null, forward: null }, '')
    stop = watchHistoryMoves(router)
    press('ArrowLeft')
    button('mouseup', 4)
    window.history.replaceState({ back: '/', forward: null }, '')
    const field = document.createElement('input')
    document.body.append(field)
    press('ArrowLeft', { altKey: true }, field)
    press('ArrowLeft', { altKey: true, shiftKey: true })
    press('ArrowLeft', { altKey: false })
    button('mouseup', 0)
    expect(moves).toEqual([])
    field.remove()
  })
})

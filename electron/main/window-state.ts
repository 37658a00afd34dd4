import type { Rectangle } from 'electron'

export interface WindowState {
  bounds: Rectangle
  maximized: boolean
}

export const defaultWindowState: WindowState = {
  bounds: { x: -1, y: -1, width: 1280, height: 820 },
  maximized: false,
}

/** A remembered position is used only when it still lies on a connected display. */
export function restorableBounds(state: WindowState, displays: Rectangle[]): Partial<Rectangle> {
  const { x, y, width, height } = state.bounds
  const size = { width: Math.max(width, 900), height: Math.max(height, 600) }
  const visible = displays.some(
    (area) => x >= area.x && y >= area.y && x + 100 <= area.x + area.width && y + 100 <= area.y + area.height,
  )
  return visible ? { x, y, ...size } : size
}

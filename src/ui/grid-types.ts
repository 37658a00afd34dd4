export interface GridColumn {
  key: string
  title: string
  /** Starting width in pixels; the user can drag it wider or narrower. */
  width: number
  sortable?: boolean
  /** Its cells can be edited in place (a grid with `cellFocus`). */
  editable?: boolean
  /**
   * Its cells name what has a page of its own (a company, a person): drawn as links. With
   * `cellFocus`, a click follows a link cell that is not editable; an editable one follows on a
   * Ctrl or Cmd click, a plain click being the cell's.
   */
  link?: boolean
}

export interface GridSort {
  key: string
  direction: 'asc' | 'desc'
}

/** The colours a tag in a grid cell can take: Naive UI's tag types. */
export type TagTone = 'default' | 'info' | 'success' | 'warning' | 'error'

/**
 * A cell drawn as a tag: a short label on its tone's colour, and what it means in a tooltip on
 * hover (`tip`).
 */
export interface GridTag {
  label: string
  tone: TagTone
  tip?: string
}

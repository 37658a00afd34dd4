export interface GridColumn {
  key: string
  title: string
  /** Starting width in pixels; the user can drag it wider or narrower. */
  width: number
  sortable?: boolean
  /** Its cells name what has a page of its own (a company, a person): drawn as links. */
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

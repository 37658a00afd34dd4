export interface GridColumn {
  key: string
  title: string
  /** Starting width in pixels; the user can drag it wider or narrower. */
  width: number
  sortable?: boolean
}

export interface GridSort {
  key: string
  direction: 'asc' | 'desc'
}

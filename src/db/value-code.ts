import type { CodedValues } from './records'
/**
 * Plain values (strings, numbers, booleans, null, undefined, arrays and plain objects of them) coded
 * as two strings and a list of names: every string one after another in `strings`, and in `shape`,
 * as char codes, what each value is, how long each string is and which name each field has.
 * Structured clone reads every object, key and string one by one; here two strings and a few dozen
 * names are copied, and the rows are made from them, which reads enriched rows from IndexedDB
 * faster than as objects (`npm run bench -- --only browser`, the export and the grid).
 */
export type { CodedValues }

// What a value in `shape` is: its tag, its first code.
/** No value at this place of the list (a hole in a block's rows). */
const hole = 0
const undefinedTag = 1
const nullTag = 2
const trueTag = 3
const falseTag = 4
/** Then its length; the string is next in `strings`. */
const stringTag = 5
/** Then the length of its writing (`String(number)`), next in `strings`. */
const numberTag = 6
/** Then its length, then each item. */
const arrayTag = 7
/** Then its number of fields, then for each its name's place and its value. */
const objectTag = 8

/**
 * The largest length, count or name's place in `shape` (and a packed block's `layout`): a char code
 * below the surrogates, so that the codes come through a string unchanged.
 */
export const largestCode = 0xd7ff

const utf16 = new TextDecoder('utf-16le')

/** Char codes, none above `largestCode`, as a string, at once: each comes through as it is. */
export const charCodesText = (codes: Uint16Array): string => utf16.decode(codes)

/**
 * `values` coded (an absent item, a hole, comes back absent); `null` when one of them is not a
 * plain value (a `Date`, a class's instance, a sparse array, -0, a field named `__proto__`) or is
 * too long to code (a string or an array past 55,295, more names than that): the caller keeps such
 * values as they are. With `known`, the names start as those, each at its place, and new ones
 * follow: the codes can then stand among codes made with `known`.
 */
export function codeValues(values: readonly unknown[], known: readonly string[] = []): CodedValues | null {
  const names = known.slice()
  const placeOf = new Map<string, number>()
  for (let place = 0; place < names.length; place++) placeOf.set(names[place]!, place)
  const strings: string[] = []
  let shape = new Uint16Array(64 * values.length + 16)
  let at = 0
  const room = (codes: number): void => {
    if (at + codes <= shape.length) return
    const wider = new Uint16Array(Math.max(2 * shape.length, at + codes))
    wider.set(shape)
    shape = wider
  }
  const text = (value: string): boolean => {
    if (value.length > largestCode) return false
    shape[at++] = value.length
    strings.push(value)
    return true
  }
  const code = (value: unknown): boolean => {
    room(2)
    switch (typeof value) {
      case 'string':
        shape[at++] = stringTag
        return text(value)
      case 'number':
        if (Object.is(value, -0)) return false
        shape[at++] = numberTag
        return text(String(value))
      case 'boolean':
        shape[at++] = value ? trueTag : falseTag
        return true
      case 'undefined':
        shape[at++] = undefinedTag
        return true
      case 'object': {
        if (value === null) {
          shape[at++] = nullTag
          return true
        }
        if (Array.isArray(value)) {
          const items = value as unknown[]
          if (items.length > largestCode) return false
          shape[at++] = arrayTag
          shape[at++] = items.length
          for (let item = 0; item < items.length; item++) {
            if (!(item in items) || !code(items[item])) return false
          }
          return true
        }
        const prototype: unknown = Object.getPrototypeOf(value)
        if (prototype !== Object.prototype && prototype !== null) return false
        const fields = Object.keys(value)
        if (fields.length > largestCode) return false
        shape[at++] = objectTag
        shape[at++] = fields.length
        for (const field of fields) {
          // Set by name, this one would set the object's prototype, not a field.
          if (field === '__proto__') return false
          let place = placeOf.get(field)
          if (place === undefined) {
            place = names.length
            if (place > largestCode) return false
            placeOf.set(field, place)
            names.push(field)
          }
          room(1)
          shape[at++] = place
          if (!code((value as Record<string, unknown>)[field])) return false
        }
        return true
      }
      default:
        return false
    }
  }
  for (let item = 0; item < values.length; item++) {
    if (!(item in values)) {
      room(1)
      shape[at++] = hole
    } else if (!code(values[item])) return null
  }
  return { names, strings: strings.join(''), shape: charCodesText(shape.subarray(0, at)) }
}

/** The `count` values `codeValues` coded, holes where they were. */
export function decodeValues(coded: CodedValues, count: number): unknown[] {
  const { names, strings, shape } = coded
  let at = 0
  let from = 0
  const value = (): unknown => {
    switch (shape.charCodeAt(at++)) {
      case stringTag: {
        const to = from + shape.charCodeAt(at++)
        const string = strings.slice(from, to)
        from = to
        return string
      }
      case numberTag: {
        const to = from + shape.charCodeAt(at++)
        const number = Number(strings.slice(from, to))
        from = to
        return number
      }
      case nullTag:
        return null
      case trueTag:
        return true
      case falseTag:
        return false
      case undefinedTag:
        return undefined
      case arrayTag: {
        const items = new Array<unknown>(shape.charCodeAt(at++))
        for (let item = 0; item < items.length; item++) items[item] = value()
        return items
      }
      case objectTag: {
        const fields = shape.charCodeAt(at++)
        const object: Record<string, unknown> = {}
        for (let field = 0; field < fields; field++) object[names[shape.charCodeAt(at++)]!] = value()
        return object
      }
      default:
        throw new Error(`A stored block cannot be read: code ${shape.charCodeAt(at - 1)} at ${at - 1}.`)
    }
  }
  const values = new Array<unknown>(count)
  for (let item = 0; item < count; item++) {
    if (shape.charCodeAt(at) === hole) at++
    else values[item] = value()
  }
  return values
}

/** Where each of a coded list's values starts, in its `shape` and its `strings`, then where the last ends. */
export interface ValueBounds {
  shape: Uint32Array
  strings: Uint32Array
}

/** Where a walk through coded values stands: in their `shape`, and in their `strings`. */
interface Walk {
  at: number
  from: number
}

/** Moves `walk` past one value of `shape`, making nothing of it. */
function skipValue(shape: string, walk: Walk): void {
  switch (shape.charCodeAt(walk.at++)) {
    case stringTag:
    case numberTag:
      walk.from += shape.charCodeAt(walk.at++)
      return
    case arrayTag:
      for (let items = shape.charCodeAt(walk.at++); items > 0; items--) skipValue(shape, walk)
      return
    case objectTag:
      for (let fields = shape.charCodeAt(walk.at++); fields > 0; fields--) {
        walk.at++
        skipValue(shape, walk)
      }
      return
    default:
      return
  }
}

/** The bounds of the `count` values `codeValues` coded, read without making any of them. */
export function valueBounds(coded: CodedValues, count: number): ValueBounds {
  const { shape } = coded
  const starts = new Uint32Array(count + 1)
  const texts = new Uint32Array(count + 1)
  const walk: Walk = { at: 0, from: 0 }
  for (let item = 0; item < count; item++) {
    starts[item] = walk.at
    texts[item] = walk.from
    if (shape.charCodeAt(walk.at) === hole) walk.at++
    else skipValue(shape, walk)
  }
  starts[count] = walk.at
  texts[count] = walk.from
  return { shape: starts, strings: texts }
}

/** Value `item` of `coded` (its bounds from `valueBounds`), made alone; undefined for a hole. */
export function valueAt(coded: CodedValues, bounds: ValueBounds, item: number): unknown {
  const one: CodedValues = {
    names: coded.names,
    strings: coded.strings.slice(bounds.strings[item]!, bounds.strings[item + 1]!),
    shape: coded.shape.slice(bounds.shape[item]!, bounds.shape[item + 1]!),
  }
  return decodeValues(one, 1)[0]
}

/**
 * `coded` (its `count` values) with the values at some places replaced, the others' codes kept as
 * they are: decoded, the same values as `codeValues` of the values replaced gives. Null where a
 * place is not one of the `count`, or a value cannot be coded.
 */
export function spliceValues(
  coded: CodedValues,
  count: number,
  replaced: ReadonlyMap<number, unknown>,
): CodedValues | null {
  const places = [...replaced.keys()].sort((a, b) => a - b)
  if (places.length === 0) return coded
  if (places[0]! < 0 || places.at(-1)! >= count) return null
  const made = codeValues(
    places.map((place) => replaced.get(place)),
    coded.names,
  )
  if (!made) return null
  const bounds = valueBounds(coded, count)
  const madeBounds = valueBounds(made, places.length)
  const shape: string[] = []
  const strings: string[] = []
  let shapeAt = 0
  let stringsAt = 0
  places.forEach((place, at) => {
    shape.push(
      coded.shape.slice(shapeAt, bounds.shape[place]),
      made.shape.slice(madeBounds.shape[at], madeBounds.shape[at + 1]),
    )
    strings.push(
      coded.strings.slice(stringsAt, bounds.strings[place]),
      made.strings.slice(madeBounds.strings[at], madeBounds.strings[at + 1]),
    )
    shapeAt = bounds.shape[place + 1]!
    stringsAt = bounds.strings[place + 1]!
  })
  shape.push(coded.shape.slice(shapeAt))
  strings.push(coded.strings.slice(stringsAt))
  return { names: made.names, strings: strings.join(''), shape: shape.join('') }
}

/** Whether value `item` of `coded` (its bounds from `valueBounds`) is an object: not a hole, not a plain value. */
export const isObjectValue = (coded: CodedValues, bounds: ValueBounds, item: number): boolean =>
  coded.shape.charCodeAt(bounds.shape[item]!) === objectTag

/**
 * Coded values made of values of other coded lists, each copied as it is coded and never made: the
 * same codes as `codeValues` of those values gives. In each value taken, a top-level field named
 * `numbered` takes the number given with the value, and one named `dropped` is left out.
 */
export class ValuePicker {
  private readonly names: string[] = []
  private readonly placeOf = new Map<string, number>()
  /** For each source, its names' places here (-1 until met). */
  private readonly places = new WeakMap<CodedValues, Int32Array>()
  private shape = new Uint16Array(16_384)
  private at = 0
  private readonly strings: string[] = []
  /** Set once more names were met than `shape` can place. */
  private tooMany = false

  constructor(
    private readonly numbered: string,
    private readonly dropped: string,
  ) {}

  /** Appends value `item` of `source` (its bounds from `valueBounds`); false, and nothing taken, for a hole. */
  take(source: CodedValues, bounds: ValueBounds, item: number, number: number): boolean {
    const codes = source.shape
    const walk: Walk = { at: bounds.shape[item]!, from: bounds.strings[item]! }
    if (codes.charCodeAt(walk.at) === hole) return false
    const names = source.names
    let places = this.places.get(source)
    if (!places) {
      places = new Int32Array(names.length).fill(-1)
      this.places.set(source, places)
    }
    // Room for the value's codes as they are, and for its number written out in place of its own.
    this.room(bounds.shape[item + 1]! - walk.at + 2)
    // Where the strings not yet taken start: they are taken a run at a time, up to a field replaced.
    let piece = walk.from
    const flush = (): void => {
      if (walk.from > piece) this.strings.push(source.strings.slice(piece, walk.from))
    }
    const copy = (top: boolean): void => {
      const tag = codes.charCodeAt(walk.at++)
      this.shape[this.at++] = tag
      switch (tag) {
        case stringTag:
        case numberTag: {
          const length = codes.charCodeAt(walk.at++)
          this.shape[this.at++] = length
          walk.from += length
          return
        }
        case arrayTag: {
          const items = codes.charCodeAt(walk.at++)
          this.shape[this.at++] = items
          for (let one = 0; one < items; one++) copy(false)
          return
        }
        case objectTag: {
          const fields = codes.charCodeAt(walk.at++)
          const countAt = this.at++
          let kept = 0
          for (let field = 0; field < fields; field++) {
            const place = codes.charCodeAt(walk.at++)
            const name = names[place]!
            if (top && name === this.dropped) {
              flush()
              skipValue(codes, walk)
              piece = walk.from
              continue
            }
            this.shape[this.at++] = places[place]! >= 0 ? places[place]! : this.place(name, places, place)
            kept++
            if (top && name === this.numbered) {
              flush()
              skipValue(codes, walk)
              piece = walk.from
              const text = String(number)
              this.shape[this.at++] = numberTag
              this.shape[this.at++] = text.length
              this.strings.push(text)
            } else copy(false)
          }
          this.shape[countAt] = kept
          return
        }
        default:
          return
      }
    }
    copy(true)
    flush()
    return true
  }

  /** The values taken, coded; null when they hold more field names than can be coded. */
  done(): CodedValues | null {
    if (this.tooMany) return null
    return {
      names: this.names,
      strings: this.strings.join(''),
      shape: charCodesText(this.shape.subarray(0, this.at)),
    }
  }

  private place(name: string, places: Int32Array, place: number): number {
    let here = this.placeOf.get(name)
    if (here === undefined) {
      here = this.names.length
      if (here > largestCode) this.tooMany = true
      this.placeOf.set(name, here)
      this.names.push(name)
    }
    places[place] = here
    return here
  }

  private room(codes: number): void {
    if (this.at + codes <= this.shape.length) return
    const wider = new Uint16Array(2 * this.shape.length + codes)
    wider.set(this.shape)
    this.shape = wider
  }
}

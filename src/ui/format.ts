const numbers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 })

/** A count or a credit amount as the user's locale writes it: 12,345 or 0.1. */
export const formatNumber = (value: number): string => numbers.format(value)

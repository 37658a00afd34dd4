// Draws the application icon (resources/icon.png, 1024×1024) without any image tool:
// a rounded square in the brand green holding a white contact card with two lines.
import { writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

const size = 1024
const pixels = Buffer.alloc(size * size * 4)

function insideRoundedRect(x, y, left, top, right, bottom, radius) {
  if (x < left || x > right || y < top || y > bottom) return false
  const cx = Math.min(Math.max(x, left + radius), right - radius)
  const cy = Math.min(Math.max(y, top + radius), bottom - radius)
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2
}

for (let y = 0; y < size; y++) {
  for (let x = 0; x < size; x++) {
    const offset = (y * size + x) * 4
    let color = [0, 0, 0, 0]
    if (insideRoundedRect(x, y, 64, 64, 960, 960, 200)) {
      const t = (x + y) / (2 * size)
      color = [Math.round(24 + 20 * t), Math.round(160 - 40 * t), Math.round(88 + 30 * t), 255]
    }
    if (insideRoundedRect(x, y, 232, 300, 792, 724, 56)) color = [255, 255, 255, 255]
    if ((x - 380) ** 2 + (y - 460) ** 2 <= 70 ** 2) color = [36, 150, 96, 255]
    if (insideRoundedRect(x, y, 300, 560, 460, 640, 40)) color = [36, 150, 96, 255]
    if (insideRoundedRect(x, y, 500, 420, 720, 460, 20)) color = [150, 160, 170, 255]
    if (insideRoundedRect(x, y, 500, 500, 680, 540, 20)) color = [190, 198, 205, 255]
    if (insideRoundedRect(x, y, 500, 580, 640, 620, 20)) color = [190, 198, 205, 255]
    pixels.set(color, offset)
  }
}

const raw = Buffer.alloc(size * (size * 4 + 1))
for (let y = 0; y < size; y++) pixels.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4)

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (buffer) => {
  let c = 0xffffffff
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type, data) => {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}
const header = Buffer.alloc(13)
header.writeUInt32BE(size, 0)
header.writeUInt32BE(size, 4)
header.set([8, 6, 0, 0, 0], 8)
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
])
writeFileSync(new URL('../resources/icon.png', import.meta.url), png)

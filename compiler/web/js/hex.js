// Intel HEX, as `gamec build` writes a firmware's flash image, read into the bytes of flash.

/** The flash image of `text` in a chip of `size` bytes; throws on a malformed record. */
export function parseHex(text, size) {
  const flash = new Uint8Array(size);
  let base = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (line[0] !== ':') throw new Error(`not an Intel HEX record: ${line}`);
    const bytes = [];
    for (let i = 1; i < line.length; i += 2) bytes.push(parseInt(line.slice(i, i + 2), 16));
    const [count, hi, lo, type] = bytes;
    const data = bytes.slice(4, 4 + count);
    const sum = bytes.reduce((a, b) => a + b, 0) & 0xff;
    if (sum !== 0 || data.length !== count) throw new Error(`bad checksum or length: ${line}`);
    switch (type) {
      case 0: flash.set(data, base + ((hi << 8) | lo)); break;
      case 1: return flash;
      // Extended segment and linear addresses: flash past 64 KB.
      case 2: base = ((data[0] << 8) | data[1]) << 4; break;
      case 4: base = ((data[0] << 8) | data[1]) << 16; break;
      default: break;
    }
  }
  return flash;
}

// Builds playground links the way the app does (version 1: deflate +
// base64url of the JSON state), to test what arbitrary links do.
import { deflateRawSync } from 'node:zlib';

export function encodeLink(state) {
  const packed = deflateRawSync(Buffer.from(JSON.stringify(state)));
  return `1.${packed.toString('base64url')}`;
}
